// The listing's walk: breadth-first under the source path, one getChildren per znode, reading each lock it finds.
// Recipe nodes, a semaphore's `leases`/`locks`, a kazoo semaphore's `<p>-__lock__` and Lockboard's own trail are
// read as parts of their lock, never walked into. Bounded, so a huge tree cannot hold a listing forever.
import { codeOf, isUnreachable, ZK, type ZkConn } from './conn';
import { layoutOf, readLock, type ZkLock } from './read';
import { recipeNode } from './recipes';
import { joinPath } from './source';

const MAX_DEPTH = 8;
export const MAX_ZNODES = 20_000;

interface Walked {
  locks: ZkLock[];
  /** Znodes under the source that are neither locks nor a lock's parts. */
  skipped: number;
  /** The walk stopped at its bounds. */
  truncated: boolean;
}

const PARTS = new Set(['leases', 'locks', 'lease_holder']);

export async function walkLocks(conn: ZkConn, root: string): Promise<Walked> {
  const locks: ZkLock[] = [];
  let skipped = 0;
  let visited = 0;
  let level: { path: string; siblingQueue: boolean }[] = [{ path: root, siblingQueue: false }];
  for (let depth = 0; level.length && depth <= MAX_DEPTH; depth++) {
    const next: typeof level = [];
    visited += level.length;
    const listed = await Promise.all(
      // a znode gone meanwhile, or one this identity may not read, is skipped; the source path itself must be readable,
      // and a walk that lost its server fails (skipping every znode would list the source as empty)
      level.map(async (p) => ({
        ...p,
        names: await conn.children(p.path).catch((err: unknown) => {
          if (isUnreachable(err) || (p.path === root && codeOf(err) === ZK.NO_AUTH)) throw err;
          return null;
        }),
      })),
    );
    const found = await Promise.all(
      listed.map((p) => (p.names ? readLock(conn, p.path, p.names, p.siblingQueue) : Promise.resolve(null))),
    );
    listed.forEach((p, i) => {
      const lock = found[i];
      if (lock && (lock.holders.length || lock.waiters.length)) locks.push(lock);
      if (!p.names) return;
      const kind = layoutOf(p.names, p.siblingQueue);
      for (const n of p.names) {
        if (recipeNode(n) || (p.path === root && n === '.lockboard') || (p.path === '/' && n === 'zookeeper')) continue;
        if (kind !== 'queue' && kind !== 'none' && (PARTS.has(n) || kind === 'kazoo-semaphore')) continue;
        if (n.endsWith('-__lock__') && p.names.includes(n.slice(0, -'-__lock__'.length))) continue;
        next.push({ path: joinPath(p.path, n), siblingQueue: p.names.includes(`${n}-__lock__`) });
      }
      if (!lock && p.path !== root && p.names.length === 0) skipped++;
    });
    level = visited + next.length > MAX_ZNODES ? next.slice(0, Math.max(0, MAX_ZNODES - visited)) : next;
    if (level.length < next.length) return { locks, skipped, truncated: true };
  }
  return { locks, skipped, truncated: level.length > 0 };
}
