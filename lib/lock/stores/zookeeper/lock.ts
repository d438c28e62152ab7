// Lockboard's lock on ZooKeeper (issue #36 §4): an ephemeral sequential node in kazoo's Lock layout
// (`<path>/<uuid4 hex>__lock__<seq>`), so Lockboard and kazoo wait in one queue. It waits on its predecessor only (no
// herd), its fencing token is the sequence, and loss (the session expired, or the node deleted by an operator) is
// pushed through `signal`. The session is the lease: no refresh is written.
import { HeldLock } from '../../holding/held-lock';
import type { ZkConn } from './conn';

/** The lock once its node is first in the queue: `signal` aborts when the session expires or the node is deleted. */
export class ZooKeeperLock extends HeldLock {
  /** The node's sequence: grows with every node queued under this lock's path. */
  readonly fencingToken: string;
  private readonly onExpired = () => this.lose('refresh-failed', 'the ZooKeeper session expired: its node is gone');

  constructor(
    private readonly conn: ZkConn,
    name: string,
    readonly node: string,
  ) {
    super(name);
    this.fencingToken = String(Number(node.slice(-10)));
    conn.client.on('expired', this.onExpired);
    this.watchNode();
  }

  private watchNode(): void {
    const { conn, node } = this;
    void conn
      .exists(node, (e) =>
        e.type === conn.zk.Event.NODE_DELETED
          ? this.lose('released-by-operator', 'the node was deleted')
          : this.watchNode(),
      )
      .then((s) => !s && this.lose('released-by-operator', 'the node was deleted'))
      .catch(() => undefined);
  }

  /** The session's listener stays until the release; the node's watch is ZooKeeper's, fired once. */
  protected stopWatching(): void {}

  async release(): Promise<'released' | 'already-lost'> {
    this.conn.client.removeListener('expired', this.onExpired);
    if (!this.stop()) return 'already-lost';
    try {
      await this.conn.remove(this.node, -1);
      return 'released';
    } catch {
      return 'already-lost';
    }
  }
}
