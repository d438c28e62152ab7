// One lock file as every store's LockView: health from its tool's own rule and the live holder, the version that a
// release is conditioned on, and the release dialog's words (naming the live process that makes a release refused).
import type { LockView } from '../../store';
import type { LockHealth } from '../../types';
import { identityOf, versionOf, type Entry } from './entry';
import { describeProcess } from './process';
import type { FileStatus, Reading } from './reading';
import { filesTerms } from './words';
import { fileSigns } from './signs';

const HEALTH: Record<FileStatus, LockHealth> = {
  live: 'healthy',
  fresh: 'healthy',
  stale: 'expired',
  unknown: 'unknown',
  free: 'free',
};

/** What the release dialog says, and whether a release is refused (a live holder). */
function releaseNoteOf(r: Reading): string {
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
  if (r.basis === 'absence') return 'Removes the file if it is still exactly the one you saw; no process holds it.';
  return `Removes the file if it is still exactly the one you saw. ${r.why} That is its tool’s rule, not proof: make sure its holder has stopped first.`;
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
    signs: fileSigns(r, e, o.nowMs),
  };
}
