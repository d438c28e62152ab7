// The lease a replica holds on one delivery series (lib/lock/claim-lease.ts): renewed before each attempt and while
// the series waits between attempts, settled `delivered` or `failed` when it ends, handed back (expired at once) when
// the queue drops it or the replica stops. Its writes go one after another, each pinned to the version the last wrote;
// one that finds another replica's write means the series is that replica's now: this one stops sending it.
import { releaseClaim, renewClaim, settleClaim, type ClaimRecords, type HeldClaim } from '@/lib/lock/claim-lease';

export class JobLease {
  private chain: Promise<unknown> = Promise.resolve();
  private lastWriteAt = Date.now();
  /** Another replica took it over (or it was settled or handed back): nothing more is written. */
  lost = false;

  constructor(
    private readonly records: ClaimRecords,
    private held: HeldClaim,
    /** The store's clock (the lease's `until` is on it). */
    private readonly now: () => number,
    readonly leaseMs: number,
    /** A write the store refused with an error (a lost UPDATE grant, the store down): said, never thrown. */
    private readonly warn: (err: Error) => void = () => undefined,
  ) {}

  get attempts(): number {
    return this.held.lease.attempts;
  }

  get firstAt(): number {
    return this.held.lease.firstAt;
  }

  /**
   * True while still this replica's; a store error keeps it (delivering twice beats not at all). `attempts`: those
   * begun, never fewer than written before.
   */
  renew(attempts: number): Promise<boolean> {
    return this.write(
      (h) => renewClaim(this.records, h, this.now(), this.leaseMs, Math.max(attempts, h.lease.attempts)),
      false,
    );
  }

  /** Renews when a third of the lease has gone by since the last write. */
  keep(attempts: number): Promise<boolean> {
    if (Date.now() - this.lastWriteAt < this.leaseMs / 3) return Promise.resolve(!this.lost);
    return this.renew(attempts);
  }

  settle(state: 'delivered' | 'failed', attempts: number): Promise<boolean> {
    return this.write((h) => settleClaim(this.records, h, state, attempts), true);
  }

  release(attempts: number): Promise<boolean> {
    return this.write((h) => releaseClaim(this.records, h, attempts), true);
  }

  private write(change: (h: HeldClaim) => Promise<HeldClaim | null>, last: boolean): Promise<boolean> {
    const next = this.chain.then(async () => {
      if (this.lost) return false;
      this.lastWriteAt = Date.now();
      try {
        const held = await change(this.held);
        if (held) this.held = held;
        this.lost = !held || last;
        return held !== null;
      } catch (err) {
        this.warn(err as Error);
        return !last; // unknown: still ours; a settlement not written lets the lease run out (then sent again)
      }
    });
    this.chain = next;
    return next;
  }
}
