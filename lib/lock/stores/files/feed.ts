// The directory's change feed for the console's live view: fs.watch (inotify on Linux; recursive with ?depth) names
// the lock that changed within ~50 ms, and the kernel's lock table, read each second, reports a flock/fcntl holder
// that took or dropped its lock without touching the file. Watches miss events on network filesystems and cannot see
// a process that exits while holding a plain fd: the console's periodic listing reconciles those.
import fs from 'node:fs';
import type { ChangeFeed, ChangeFeedHandlers } from '../../store';
import { LOCKD_SUFFIX } from './gendir-body';
import type { FilesSource } from './source';
import { isOwnFile } from './walk';

const BATCH_MS = 50;
const LOCK_TABLE_MS = 1_000;

/** The lock an event's file belongs to: a file inside `job.lockd/` or `x.lock/` is that directory's change. */
export function lockNameOf(file: string): string | null {
  const parts = file.split(/[\\/]/);
  if (parts.some(isOwnFile)) return null;
  const i = parts.findIndex((p, j) => j < parts.length - 1 && (p.endsWith(LOCKD_SUFFIX) || p.endsWith('.lock')));
  return (i >= 0 ? parts.slice(0, i + 1) : parts).join('/');
}

const lockTable = () => {
  try {
    return fs.readFileSync('/proc/locks', 'utf8').replace(/^\d+: /gm, '');
  } catch {
    return '';
  }
};

export function startFilesFeed(src: FilesSource, handlers: ChangeFeedHandlers): ChangeFeed | null {
  let watcher: fs.FSWatcher;
  try {
    watcher = fs.watch(src.dir, { recursive: src.depth > 0, persistent: false });
  } catch {
    return null; // a platform or filesystem without watches: the console lists at the store's pace
  }
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  watcher.on('change', (_type, file) => {
    const name = file ? lockNameOf(String(file)) : null;
    if (!name) return;
    pending.add(name);
    timer ??= setTimeout(() => {
      timer = undefined;
      const names = [...pending];
      pending.clear();
      handlers.changed(names, Date.now());
    }, BATCH_MS);
  });
  watcher.on('error', (err) => handlers.missed(`the watch on ${src.dir} failed: ${err.message}`));
  let table = lockTable();
  const poll = setInterval(() => {
    const now = lockTable();
    if (now === table) return;
    table = now;
    handlers.missed('a process took or dropped a kernel lock');
  }, LOCK_TABLE_MS);
  poll.unref();
  return {
    description: `fs.watch on ${src.dir}${src.depth ? ' (recursive)' : ''} and /proc/locks each second`,
    stop() {
      clearTimeout(timer);
      clearInterval(poll);
      watcher.close();
      return Promise.resolve();
    },
  };
}
