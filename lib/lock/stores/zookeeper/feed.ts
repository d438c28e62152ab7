// ZooKeeper's change feed for the console's live view: a child watch on every znode under the source path (lock
// parents included), re-armed after each event, so a holder leaving or a contender queueing reaches the screen as the
// server notifies it. A watch fires once and a lost connection may drop notifications: a reconnect or an expired
// session is reported as missed (the console lists again), and an expired session ends the feed's watches. A watch
// that could not be armed while disconnected is armed on the reconnect; a new session (kept-client.ts) arms them all again.
import type { ChangeFeed, ChangeFeedHandlers } from '../../store';
import { isUnreachable, type ZkConn } from './conn';
import { recipeNode } from './recipes';
import { joinPath, nameOfPath } from './source';
import { MAX_ZNODES } from './walk';

/** The lock a changed znode belongs to: a semaphore's `leases`/`locks` and a kazoo `<p>-__lock__` name `<p>`. */
export function lockOfPath(path: string): string {
  if (/\/(leases|locks)$/.test(path)) return path.slice(0, path.lastIndexOf('/')) || '/';
  if (path.endsWith('-__lock__')) return path.slice(0, -'-__lock__'.length);
  return path;
}

export async function startZooKeeperFeed(
  conn: ZkConn,
  root: string,
  handlers: ChangeFeedHandlers,
): Promise<ChangeFeed | null> {
  const armed = new Set<string>();
  /** Watches that could not be armed for want of a server: armed on the reconnect. */
  const unarmed = new Set<string>();
  let stopped = false;
  const arm = async (path: string): Promise<void> => {
    if (stopped || armed.has(path) || armed.size >= MAX_ZNODES) return;
    armed.add(path);
    const names = await conn
      .children(path, (event) => {
        armed.delete(path);
        if (stopped) return;
        handlers.changed([nameOfPath(lockOfPath(event.path))], Date.now());
        void arm(path).catch(() => armed.delete(path));
      })
      .catch((err: unknown) => (isUnreachable(err) && unarmed.add(path), null));
    if (names === null) {
      armed.delete(path); // gone: its parent's watch re-arms it if it comes back
      return;
    }
    const parts = names.filter((n) => !recipeNode(n) && !(path === root && n === '.lockboard'));
    await Promise.all(parts.map((n) => arm(joinPath(path, n))));
  };
  const onDisconnected = () => handlers.missed('the ZooKeeper connection was lost');
  const onExpired = () => {
    armed.clear();
    handlers.missed('the ZooKeeper session expired: its watches are gone');
  };
  const rearm = () => {
    const paths = [root, ...unarmed];
    unarmed.clear();
    for (const path of paths) void arm(path).catch(() => undefined);
  };
  const onRenewed = () => (onExpired(), rearm());
  conn.on('disconnected', onDisconnected);
  conn.on('expired', onExpired);
  conn.on('reconnected', rearm);
  conn.on('renewed', onRenewed);
  await arm(root);
  return {
    description: `ZooKeeper child watches on ${armed.size} znodes under ${conn.source.display}`,
    async stop() {
      stopped = true;
      conn.removeListener('disconnected', onDisconnected);
      conn.removeListener('expired', onExpired);
      conn.removeListener('reconnected', rearm);
      conn.removeListener('renewed', onRenewed);
    },
  };
}
