// Lockboard's own lock on etcd in Go's concurrency.Mutex layout, so Lockboard and `etcdctl lock` wait in one queue:
// the key `<name>/<lease hex>` (value empty) on a lease kept alive as the refresh; the fencing token is the key's
// create revision; loss (the lease expired, or the key deleted by an operator) aborts the signal; the release
// deletes the key pinned to its create revision, then revokes the lease (it carries nothing else).
import { HeldLock } from '../../holding/held-lock';
import type { Etcd3Client } from './client';

type Lease = ReturnType<Etcd3Client['lease']>;
type Watcher = Awaited<ReturnType<ReturnType<Etcd3Client['watch']>['create']>>;

export class EtcdLock extends HeldLock {
  private released = false;
  private watcher?: Watcher;

  constructor(
    private readonly client: Etcd3Client,
    private readonly lease: Lease,
    name: string,
    readonly key: string,
    /** The key's create revision: grows with every acquisition of any key in this etcd. */
    readonly fencingToken: string,
  ) {
    super(name);
    lease.on('lost', (err) => this.lose('refresh-failed', `the lease expired (${err.message})`));
  }

  /** Watches the own key: a delete by anyone else is a loss, pushed through the signal at once. */
  async watchOwnKey(): Promise<void> {
    const w = await this.client
      .watch()
      .key(this.key)
      .startRevision(String(BigInt(this.fencingToken) + 1n))
      .create();
    this.watcher = w;
    w.on('delete', () => this.lose('released-by-operator', `the key ${this.key} was deleted`));
    w.on('error', () => undefined); // the lease's own 'lost' still reports an expiry
  }

  /** The lease and the watch stay until the release: it deletes the key and revokes the lease even after a loss. */
  protected stopWatching(): void {}

  /** Deletes the key if it is still ours (same create revision), then revokes the lease: 'released' or 'lost'. */
  async release(): Promise<'released' | 'lost'> {
    if (this.released) return 'released';
    this.released = true;
    this.stop(); // no loss is reported once the release began
    await this.watcher?.cancel().catch(() => undefined);
    const txn = await this.client
      .if(this.key, 'Create', '==', this.fencingToken)
      .then(this.client.delete().key(this.key))
      .commit();
    await this.lease.revoke().catch(() => undefined);
    return txn.succeeded && !this.signal.aborted ? 'released' : 'lost';
  }
}
