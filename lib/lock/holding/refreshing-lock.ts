// What the locks kept by a refresh share (S3, Redis, DynamoDB, Azure Blob, Kubernetes, lock files), on HeldLock: a
// background refresh every interval and loss pushed through `signal`, either by a refresh that finds the lock gone or
// taken, or by a monotonic deadline `lossMarginMs` before the TTL runs out when no refresh succeeded (so the holder
// stops before anyone may take over). Each store supplies one refresh attempt.
import type { LockLostReason } from '../errors';
import { monotonicNow } from '../time';
import { HeldLock } from './held-lock';

export type RefreshResult = 'ok' | 'retry' | { lost: LockLostReason; detail: string };

export abstract class RefreshingLock extends HeldLock {
  private refreshTimer: NodeJS.Timeout | undefined;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private lastOk = monotonicNow();
  private busy: Promise<void> = Promise.resolve();

  constructor(
    name: string,
    private readonly ttlMs: number,
    private readonly refreshIntervalMs: number,
    private readonly lossMarginMs: number,
  ) {
    super(name);
    this.armDeadline();
    this.scheduleRefresh();
  }

  get isHealthy(): boolean {
    return !this.done && monotonicNow() < this.lastOk + this.ttlMs - this.lossMarginMs;
  }

  /** One refresh attempt in the store's terms; errors worth retrying are 'retry' (the deadline guards). */
  protected abstract refreshOnce(): Promise<RefreshResult>;

  async refresh(): Promise<void> {
    if (this.done) return;
    const started = monotonicNow();
    const result = await this.refreshOnce();
    if (this.done || result === 'retry') return;
    if (result === 'ok') {
      this.lastOk = started;
      return this.armDeadline();
    }
    this.lose(result.lost, result.detail);
  }

  private armDeadline(): void {
    clearTimeout(this.deadlineTimer);
    const ms = Math.max(0, this.lastOk + this.ttlMs - this.lossMarginMs - monotonicNow());
    this.deadlineTimer = setTimeout(() => this.lose('refresh-failed', 'no refresh succeeded in time'), ms);
  }

  private scheduleRefresh(): void {
    this.refreshTimer = setTimeout(() => {
      this.busy = this.refresh().finally(() => {
        if (!this.done) this.scheduleRefresh();
      });
    }, this.refreshIntervalMs);
  }

  protected stopWatching(): void {
    clearTimeout(this.refreshTimer);
    clearTimeout(this.deadlineTimer);
  }

  /** Stops refreshing once any refresh in flight has settled: false when the lock was lost meanwhile. */
  protected async stopForRelease(): Promise<boolean> {
    if (this.done) return false;
    clearTimeout(this.refreshTimer);
    await this.busy;
    return this.stop();
  }

  abstract override release(): Promise<'released' | 'already-lost'>;
}
