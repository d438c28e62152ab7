// The lock handle: background refresh with both preconditions, loss pushed through `signal` by a monotonic
// deadline, release with one conditional DELETE.
import type { AuditWriter } from './audit';
import { Backoff, sleep } from '../../backoff';
import { LockLostError, type LockLostReason } from '../../errors';
import { isTransient, statusOf, type BucketObjects } from './client';
import type { ResolvedOptions } from '../../options';
import { monotonicNow } from '../../time';
import type { GcsObjectResource } from '../../types';

export type ReleaseOutcome = 'released' | 'lost' | 'gone';
export interface ReleaseDetails {
  outcome?: 'ok' | 'error';
  error?: string;
}

interface LockInit {
  objects: BucketObjects;
  options: ResolvedOptions;
  audit: AuditWriter | null;
  object: GcsObjectResource;
  /** Monotonic time at which the request that confirmed the lock was sent. */
  confirmedAt: number;
}

const RELEASE_ATTEMPTS = 5;

export class Lock extends EventTarget {
  readonly bucket: string;
  readonly name: string;
  readonly identity: string;
  /** Fencing token: a decimal string, larger for every new holder of this name. Compare as a big integer. */
  readonly generation: string;
  readonly signal: AbortSignal;
  /** Local monotonic time after which, without a confirmed refresh, the lock counts as lost. */
  readonly lossAfterMs: number;

  private metageneration: string;
  private confirmedAt: number;
  private readonly acquiredAt: number;
  private failures = 0;
  private unknownRefresh = false;
  private state: 'held' | 'releasing' | 'lost' | 'released' = 'held';
  private refreshTimer?: NodeJS.Timeout;
  private lossTimer?: NodeJS.Timeout;
  private inflight?: Promise<void>;
  private releaseResult?: Promise<{ outcome: ReleaseOutcome }>;
  private readonly controller = new AbortController();
  private readonly objects: BucketObjects;
  private readonly options: ResolvedOptions;
  private readonly audit: AuditWriter | null;

  constructor(init: LockInit) {
    super();
    this.objects = init.objects;
    this.options = init.options;
    this.audit = init.audit;
    this.bucket = init.options.bucket;
    this.name = init.options.name;
    this.identity = init.options.identity;
    this.generation = String(init.object.generation);
    this.metageneration = String(init.object.metageneration);
    this.confirmedAt = init.confirmedAt;
    this.acquiredAt = init.confirmedAt;
    this.signal = this.controller.signal;
    const { ttlMs, refreshIntervalMs } = init.options;
    // Protocol: TTL − max(2 × refresh, TTL/10). At the allowed maximum refresh = TTL/3 that deadline equals one
    // refresh interval, so the holder would be declared lost as its first refresh is sent; the margin is capped
    // at TTL/3 so at least two refresh intervals always fit. Identical for refresh <= TTL/6 (the default is TTL/8).
    this.lossAfterMs = ttlMs - Math.max(Math.min(2 * refreshIntervalMs, ttlMs / 3), ttlMs / 10);
    this.armLossTimer();
    this.scheduleRefresh(init.confirmedAt + refreshIntervalMs);
  }

  /** The metageneration of the last confirmed write (changes at every refresh). */
  get currentMetageneration(): string {
    return this.metageneration;
  }

  /** False once lost or released, and as soon as the loss deadline passed, even before any timer ran. */
  get isHealthy(): boolean {
    return (
      (this.state === 'held' || this.state === 'releasing') && monotonicNow() - this.confirmedAt < this.lossAfterMs
    );
  }

  assertHealthy(): void {
    if (this.isHealthy) return;
    if (this.state === 'held') this.markLost('refresh-failed', 'no refresh was confirmed before the loss deadline');
    throw this.signal.reason instanceof Error ? this.signal.reason : new LockLostError(this.name, 'refresh-failed');
  }

  /** Refreshes now (after any refresh in flight). Throws LockLostError when the lock is no longer ours. */
  async refresh(): Promise<void> {
    await this.inflight;
    if (this.state === 'held') await this.runRefresh();
    if (this.state === 'lost') throw this.signal.reason;
    if (this.state !== 'held') throw new Error(`Lock "${this.name}" was released`);
  }

  release(): Promise<{ outcome: ReleaseOutcome }> {
    return this.releaseWith({});
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }

  /** Release, recording how the caller's work ended in the audit event. Idempotent. */
  releaseWith(details: ReleaseDetails): Promise<{ outcome: ReleaseOutcome }> {
    this.releaseResult ??= this.doRelease(details);
    return this.releaseResult;
  }

  private async doRelease(details: ReleaseDetails): Promise<{ outcome: ReleaseOutcome }> {
    if (this.state === 'held') this.state = 'releasing';
    clearTimeout(this.refreshTimer);
    await this.inflight;
    if (this.state === 'lost') return { outcome: 'lost' };
    clearTimeout(this.lossTimer);
    const outcome = await this.deleteObject();
    this.state = outcome === 'lost' ? 'lost' : 'released';
    if (outcome === 'lost') this.markLost('taken', 'the lock object changed before release', true);
    else this.record('released', details, this.deleteUnconfirmed);
    await this.audit?.flush(2_000);
    return { outcome };
  }

  /** The release found the object gone (recorded as delete_confirmed=false: it claims no delete). */
  private deleteUnconfirmed = false;

  private async deleteObject(): Promise<ReleaseOutcome> {
    const backoff = new Backoff();
    let unknownDelete = false;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.objects.delete(
          this.name,
          { ifGenerationMatch: this.generation, ifMetagenerationMatch: this.metageneration },
          this.options.requestTimeoutMs,
        );
        return 'released';
      } catch (err) {
        const status = statusOf(err);
        if (status === 404) {
          // Someone else deleted it (gone), or a DELETE of ours whose response was lost did (ours, or an operator's
          // force-release at the same moment, cannot be told apart): either way this release claims no delete
          this.deleteUnconfirmed = true;
          return unknownDelete ? 'released' : 'gone';
        }
        if (status === 412) {
          if (this.unknownRefresh && (await this.reconcile())) continue;
          return 'lost';
        }
        // Preconditions make retries safe; keep trying while the lock is still ours (GCS answers 429 to more than
        // about one write per second per object, which contenders can exhaust right at handover).
        const stillOurs = monotonicNow() - this.confirmedAt < this.lossAfterMs;
        if (!isTransient(err) || (attempt >= RELEASE_ATTEMPTS && !stillOurs)) throw err;
        if (status !== 429) unknownDelete = true;
        await sleep(backoff.afterWriteFailure(status));
      }
    }
  }

  private scheduleRefresh(atMonotonic: number): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(
      () => {
        this.inflight = this.runRefresh().finally(() => (this.inflight = undefined));
      },
      Math.max(0, atMonotonic - monotonicNow()),
    );
    this.refreshTimer.unref();
  }

  private async runRefresh(): Promise<void> {
    if (this.state !== 'held') return;
    const { refreshIntervalMs, ttlMs, maxRefreshFailures } = this.options;
    const sentAt = monotonicNow();
    const expiresAt = ((this.objects.clock.now() + ttlMs) / 1000).toFixed(3);
    try {
      const obj = await this.objects.patchMetadata(
        this.name,
        { expires_at: expiresAt },
        { ifGenerationMatch: this.generation, ifMetagenerationMatch: this.metageneration },
        Math.min(10_000, refreshIntervalMs),
      );
      // A release waiting for this refresh must delete the metageneration the refresh created, or its DELETE
      // meets 412 and the lock's own release is reported as a loss.
      if (this.state !== 'held' && !this.releasing()) return;
      this.metageneration = String(obj.metageneration);
      this.confirmedAt = sentAt;
      this.failures = 0;
      this.unknownRefresh = false;
      if (obj.metadata?.identity !== this.identity)
        return this.markLost('taken', 'the lock object names another holder');
      if (this.releasing()) return;
      this.armLossTimer();
    } catch (err) {
      const status = statusOf(err);
      if (this.releasing()) {
        // The PATCH may have been applied (lost response): the release reconciles a 412 with one GET.
        if (status !== 404 && status !== 412 && status !== 429) this.unknownRefresh = true;
        return;
      }
      if (this.state !== 'held') return;
      if (status === 404) return this.markLost('released-by-operator', 'the lock object was deleted');
      if (status === 412) {
        if (this.unknownRefresh && (await this.reconcile())) return this.scheduleRefresh(monotonicNow());
        return this.markLost('taken', 'the lock object was replaced or changed');
      }
      if (status !== 429) this.unknownRefresh = true;
      if (++this.failures >= maxRefreshFailures) {
        return this.markLost('refresh-failed', `${this.failures} refreshes in a row failed: ${(err as Error).message}`);
      }
    }
    if (this.state === 'held') this.scheduleRefresh(sentAt + refreshIntervalMs);
  }

  /** A method, not a comparison, so TypeScript does not carry a narrowing of `state` across an await. */
  private releasing(): boolean {
    return this.state === 'releasing';
  }

  /**
   * After a refresh whose response never arrived, a 412 may be our own applied PATCH. Same generation and our
   * identity means nobody replaced or deleted the object: adopt its metageneration. True when still ours.
   */
  private async reconcile(): Promise<boolean> {
    this.unknownRefresh = false;
    try {
      const current = await this.objects.get(this.name, this.options.requestTimeoutMs);
      if (!current || String(current.generation) !== this.generation) return false;
      if (current.metadata?.identity !== this.identity) return false;
      this.metageneration = String(current.metageneration);
      return true;
    } catch {
      return false;
    }
  }

  private armLossTimer(): void {
    clearTimeout(this.lossTimer);
    const remaining = this.lossAfterMs - (monotonicNow() - this.confirmedAt);
    this.lossTimer = setTimeout(
      () => {
        if (this.state === 'held' && !this.isHealthy) {
          this.markLost(
            'refresh-failed',
            `no refresh confirmed for ${Math.round(monotonicNow() - this.confirmedAt)} ms`,
          );
        } else if (this.state === 'held') this.armLossTimer();
      },
      Math.max(0, remaining),
    );
    this.lossTimer.unref();
  }

  private markLost(reason: LockLostReason, detail: string, fromRelease = false): void {
    if (this.state === 'lost' && !fromRelease) return;
    this.state = 'lost';
    clearTimeout(this.refreshTimer);
    clearTimeout(this.lossTimer);
    const error = new LockLostError(this.name, reason, detail);
    if (!this.signal.aborted) this.controller.abort(error);
    this.dispatchEvent(new CustomEvent('lost', { detail: error }));
    this.record('lost', {});
  }

  private record(event: 'released' | 'lost', details: ReleaseDetails, deleteUnconfirmed = false): void {
    this.audit?.record({
      event,
      lock: this.name,
      identity: this.identity,
      generation: this.generation,
      held_ms: String(Math.round(monotonicNow() - this.acquiredAt)),
      outcome: details.outcome,
      error: details.error,
      ...(deleteUnconfirmed ? { delete_confirmed: 'false' as const } : {}),
    });
  }
}
