// Lockboard's lock on Kubernetes: a Lease written as client-go's LeaseLock writes it (holderIdentity,
// leaseDurationSeconds, acquireTime/renewTime in six-digit MicroTime, leaseTransitions), so Lockboard and client-go
// candidates contend for one Lease. Each renew is a PUT pinned to the resourceVersion of our last write; a 409 means
// someone else wrote it (a candidate took over, or an operator cleared it), pushed through `signal`.
import { RefreshingLock, type RefreshResult } from '../../holding/refreshing-lock';
import { KubeRequestError, microTime, type Lease, type LeaseApi } from './lease';
import { clearedLease } from './release';

export interface KubeLockSettings {
  namespace: string;
  name: string;
  identity: string;
  ttlMs: number;
  refreshIntervalMs: number;
}

export class KubeLeaseLock extends RefreshingLock {
  constructor(
    private readonly api: LeaseApi,
    private readonly settings: KubeLockSettings,
    /** leaseTransitions after we took the Lease: grows with every change of holder. */
    readonly fencingToken: string,
    private lease: Lease,
  ) {
    const { ttlMs, refreshIntervalMs } = settings;
    // client-go candidates take over once they have seen the Lease unchanged for its duration: stop well before
    super(
      `${settings.namespace}/${settings.name}`,
      ttlMs,
      refreshIntervalMs,
      Math.max(ttlMs / 8, Math.min(2 * refreshIntervalMs, ttlMs / 3)),
    );
  }

  protected async refreshOnce(): Promise<RefreshResult> {
    const spec = { ...this.lease.spec, renewTime: microTime(Date.now()) };
    try {
      this.lease = await this.api.replace({ ...this.lease, spec });
      return 'ok';
    } catch (err) {
      if (!(err instanceof KubeRequestError) || (err.status !== 409 && err.status !== 404)) return 'retry';
    }
    const now = await this.api.read(this.settings.namespace, this.settings.name).catch(() => undefined);
    if (now === undefined) return 'retry';
    const holder = now?.spec?.holderIdentity ?? '';
    if (now && holder === this.settings.identity) {
      this.lease = now; // another field written (an annotation): still ours, renew on this version next time
      return 'retry';
    }
    return holder && now
      ? { lost: 'taken', detail: `${holder} holds the Lease now` }
      : { lost: 'released-by-operator', detail: 'holderIdentity was cleared (or the Lease deleted)' };
  }

  /** The release client-go's ReleaseOnCancel writes, pinned to our last write: `released`, or `already-lost`. */
  async release(): Promise<'released' | 'already-lost'> {
    if (!(await this.stopForRelease())) return 'already-lost';
    const rv = this.lease.metadata.resourceVersion ?? '';
    try {
      await this.api.replace(clearedLease(this.lease, rv, Date.now()));
      return 'released';
    } catch (err) {
      if (err instanceof KubeRequestError && (err.status === 409 || err.status === 404)) return 'already-lost';
      throw err;
    }
  }
}
