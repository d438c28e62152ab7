// One lock file as every store's LockView: health from its tool's own rule and the live holder, the version that a
// release is conditioned on, and the release dialog's words (naming the live process that makes a release refused).
import type { LockView, StoreTerms } from '../../store';
import type { HealthWords, LockHealth } from '../../types';
import { identityOf, versionOf, type Entry } from './entry';
import { describeProcess } from './process';
import type { FileStatus, Reading } from './reading';

const HEALTH: Record<FileStatus, LockHealth> = {
  live: 'healthy',
  fresh: 'healthy',
  stale: 'expired',
  unknown: 'unknown',
  free: 'free',
};

const LIVE_ADVICE =
  'No while a live process holds it: the release is refused (the note below names the process). Held only by its tool’s rule (a pid, a heartbeat): only if you know its holder has stopped, since removing the file stops no process.';

/** The lock files' truth table: a live process holding the file, or its tool's own rule (a pid, a time). */
const FILES_WORDS: HealthWords = {
  meaning: {
    healthy: 'Held: a live process holds the file, or its tool’s own rule (a pid, a time) says it is still held.',
    expired: 'Stale: no process holds it and its tool’s own rule says it was abandoned.',
    unknown:
      'Liveness cannot be judged from this host (the note says why). The file stays until its tool or an operator removes it.',
    free: 'A leftover file: nothing holds this lock.',
  },
  changes: {
    healthy: 'Becomes stale when the process holding it exits, or when its tool’s rule says so.',
    'long-held': 'Becomes stale when the process holding it exits, or when its tool’s rule says so.',
  },
  advice: {
    healthy: LIVE_ADVICE,
    expired: 'Yes: no process holds it.',
    'long-held': LIVE_ADVICE,
    unknown: 'Its liveness cannot be judged from here: make sure its holder has stopped first.',
    free: 'Nothing holds it: removing the leftover file is harmless.',
  },
};

const TERMS = terms(false);
const TERMS_TTL = terms(true);

/** The store's words; constant objects (a listing of 100 000 files shares two). */
export function filesTerms(r?: Reading): StoreTerms {
  return r?.ttlMs ? TERMS_TTL : TERMS;
}

function terms(ttl: boolean): StoreTerms {
  return {
    storeLabel: 'Lock files',
    versionName: 'device, inode, birth and modification times, size and content hash',
    since: 'Created',
    expiredMeans:
      'stale: no process holds it; removing it is safe (some tools, like git, never take a stale lock over themselves)',
    updated: 'Last modified',
    ...(ttl ? { ttl: 'Stale after' } : {}),
    liveness:
      'A live process holding the file open or locked (/proc/locks and every process’s open files), or the pid, heartbeat or rule its tool records.',
    effect:
      'Removes the file only. It stops no process: a process still holding it keeps running, and the next one to take the lock runs beside it.',
    rule: 'Renamed aside, checked to be exactly the file you saw, then removed (or put back if it is not).',
    trail:
      'Lockboard’s releases and its own locks, in .lockboard/audit.jsonl beside the locks; other tools’ acquisitions are not recorded.',
    health: FILES_WORDS,
  };
}

/** What the release dialog says, and whether a release is refused (a live holder). */
export function releaseNoteOf(r: Reading): string {
  if (r.status === 'live') {
    const who = r.holder ? describeProcess(r.holder) : 'a process this host cannot name';
    const stop = r.holder
      ? `Stop pid ${r.holder.pid} instead (kill ${r.holder.pid}), or wait for it.`
      : 'Stop its holder instead.';
    return `Refused while held: ${who} holds it. Removing the file would NOT release it: the next process to take the lock would run beside it (two holders). ${stop}`;
  }
  if (r.status === 'free') return 'Removes the leftover file; nothing holds this lock.';
  if (r.status === 'unknown')
    return `Removes the file if it is unchanged. ${r.why} Make sure its holder has stopped first.`;
  return 'Removes the file if it is still exactly the one you saw; no process holds it.';
}

export function filesView(
  e: Entry,
  r: Reading,
  o: { source: string; dir: string; nowMs: number; longHeldMs?: number },
): LockView {
  const target = r.member ?? e;
  const id = identityOf(target);
  const created = Number(target.stat.birthtimeMs) || Number(target.stat.mtimeMs);
  const heldMs = Math.max(0, o.nowMs - created);
  let health = HEALTH[r.status];
  if (health === 'healthy' && o.longHeldMs && heldMs > o.longHeldMs) health = 'long-held';
  return {
    store: 'files',
    source: o.source,
    bucket: o.dir,
    name: e.name,
    format: r.format,
    formatLabel: r.label,
    ...(r.holder ? { identity: describeProcess(r.holder) } : {}),
    ...(r.host ? { host: r.host } : {}),
    ...((r.pid ?? r.holder) ? { pid: r.pid ?? String(r.holder!.pid) } : {}),
    generation: r.generation ?? String(id.ino),
    metageneration: '0',
    createdAt: new Date(created).toISOString(),
    updatedAt: new Date(Number(target.stat.mtimeMs)).toISOString(),
    ...(r.ttlMs ? { ttlMs: r.ttlMs } : {}),
    ...(r.expiresMs ? { expiresAt: new Date(r.expiresMs).toISOString(), afterExpiry: 'expired' as const } : {}),
    health,
    heldMs,
    metadata: {},
    details: [...r.details, ['Path', target.path]],
    releasable: true,
    releaseRule: 'delete',
    releaseNote: releaseNoteOf(r),
    note: r.why,
    size: Number(id.size),
    version: versionOf(id),
    versionLabel: `inode ${id.ino}, modified ${new Date(Number(target.stat.mtimeMs)).toISOString()}, ${id.size} bytes, sha256 ${id.sha}…`,
    terms: filesTerms(r),
  };
}
