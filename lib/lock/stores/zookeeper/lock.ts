// Lockboard's lock on ZooKeeper (issue #36 §4): an ephemeral sequential node in kazoo's Lock layout
// (`<path>/<uuid4 hex>__lock__<seq>`), so Lockboard and kazoo wait in one queue. It waits on its predecessor only (no
// herd), its fencing token is the sequence, and loss (the session expired, or the node deleted by an operator) is
// pushed through `signal`. The session is the lease: no refresh is written.
import { LockLostError } from '../../errors';
import type { ZkConn } from './conn';

export interface ZooKeeperLock {
  name: string;
  node: string;
  fencingToken: string;
  signal: AbortSignal;
  release(): Promise<'released' | 'already-lost'>;
}

/** The lock once its node is first in the queue: `signal` aborts when the session expires or the node is deleted. */
export function heldLock(conn: ZkConn, name: string, path: string): ZooKeeperLock {
  const controller = new AbortController();
  let done = false;
  const lose = (reason: 'released-by-operator' | 'refresh-failed', detail: string) => {
    if (done) return;
    done = true;
    controller.abort(new LockLostError(name, reason, detail));
  };
  const onExpired = () => lose('refresh-failed', 'the ZooKeeper session expired: its node is gone');
  conn.client.on('expired', onExpired);
  const watch = () =>
    void conn
      .exists(path, (e) =>
        e.type === conn.zk.Event.NODE_DELETED ? lose('released-by-operator', 'the node was deleted') : watch(),
      )
      .then((s) => !s && lose('released-by-operator', 'the node was deleted'))
      .catch(() => undefined);
  watch();
  return {
    name,
    node: path,
    fencingToken: String(Number(path.slice(-10))),
    signal: controller.signal,
    async release() {
      conn.client.removeListener('expired', onExpired);
      if (done) return 'already-lost';
      done = true;
      try {
        await conn.remove(path, -1);
        return 'released';
      } catch {
        return 'already-lost';
      }
    },
  };
}
