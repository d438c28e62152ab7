// Lockboard's own lock on etcd in Go's concurrency.Mutex layout, so Lockboard and `etcdctl lock` wait in one queue:
// the key `<name>/<lease hex>` (value empty) on a lease kept alive as the refresh; the fencing token is the key's
// create revision; loss (the lease expired, or the key deleted by an operator) aborts the signal; the release
// deletes the key pinned to its create revision, then revokes the lease (it carries nothing else).
import { LockLostError } from '../../errors';
import type { Etcd3Client } from './client';

type Lease = ReturnType<Etcd3Client['lease']>;
type Watcher = Awaited<ReturnType<ReturnType<Etcd3Client['watch']>['create']>>;

export class EtcdLock {
  private readonly controller = new AbortController();
  private released = false;
  private watcher?: Watcher;

  constructor(
    private readonly client: Etcd3Client,
    private readonly lease: Lease,
    readonly name: string,
    readonly key: string,
    /** The key's create revision: grows with every acquisition of any key in this etcd. */
    readonly fencingToken: string,
  ) {
    lease.on('lost', (err) => this.lose('refresh-failed', `the lease expired (${err.message})`));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
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

  private lose(reason: 'refresh-failed' | 'released-by-operator', detail: string): void {
    if (this.released || this.controller.signal.aborted) return;
    this.controller.abort(new LockLostError(this.name, reason, detail));
  }

  /** Deletes the key if it is still ours (same create revision), then revokes the lease: 'released' or 'lost'. */
  async release(): Promise<'released' | 'lost'> {
    if (this.released) return 'released';
    this.released = true;
    await this.watcher?.cancel().catch(() => undefined);
    const txn = await this.client
      .if(this.key, 'Create', '==', this.fencingToken)
      .then(this.client.delete().key(this.key))
      .commit();
    await this.lease.revoke().catch(() => undefined);
    return txn.succeeded && !this.controller.signal.aborted ? 'released' : 'lost';
  }
}
