// The lock files' words and truth table: a file is held by a live process holding it open or locked, or by its tool's
// own rule (a pid, a heartbeat, a time); removing it stops no process.
import type { StoreTerms } from '../../store';
import type { HealthWords } from '../../types';
import type { Reading } from './reading';

const LIVE_ADVICE =
  'No while a live process holds it: the release is refused (the note below names the process). Held only by its tool’s rule (a pid, a heartbeat): only if you know its holder has stopped, since removing the file stops no process.';

/** The lock files' truth table: a live process holding the file, or its tool's own rule (a pid, a time). */
const FILES_WORDS: HealthWords = {
  meaning: {
    healthy: 'Held: a live process holds the file, or its tool’s own rule (a pid, a time) says it is still held.',
    expired:
      'Stale: no process holds it (looked for everywhere it could run), or its tool’s own rule (a TTL, a heartbeat) says it was abandoned; the verdict says which.',
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
    expired:
      'Yes when its holder is judged gone: no process holds it. Stale by its tool’s rule only (verdict unknown): make sure its holder has stopped first.',
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
      'stale: no process holds it, or its tool’s rule says it was abandoned (the verdict says which; only the first makes removing it safe). Some tools, like git, never take a stale lock over themselves',
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
