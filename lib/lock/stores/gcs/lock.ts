// The lock handle: background refresh with both preconditions, loss pushed through `signal` by a monotonic
// deadline, release with one conditional DELETE.
import { LockLostError, type LockLostReason } from '../../errors';
import { HeldLock } from '../../holding/held-lock';
import { statusOf, type BucketObjects } from './client';
import { LossDeadline } from './loss-deadline';
import { deleteHeldObject, holderEvent, lossAfter, ourMetageneration, patchExpiry } from './lock-object';
import type { HeldObject, LockInit, ReleaseDetails } from './lock-object';
import type { AuditWriter } from './audit';
import type { ReleaseOutcome } from './lock-object';
import type { ResolvedOptions } from './options';
import { monotonicNow } from '../../time';

export type { ReleaseOutcome } from './lock-object';

export class Lock extends HeldLock {
  readonly bucket: string;
  readonly identity: string;
  /** Fencing token: a decimal string, larger for every new holder of this name. Compare as a big integer. */
  readonly generation: string;
  /** Local monotonic time after which, without a confirmed refresh, the lock counts as lost. */
  readonly lossAfterMs: number;

  private metageneration: string;
  private readonly acquiredAt: number;
  private failures = 0;
  private unknownRefresh = false;
  private state: 'held' | 'releasing' | 'lost' | 'released' = 'held';
  private refreshTimer?: NodeJS.Timeout;
  private readonly deadline: LossDeadline;
  private inflight?: Promise<void>;
  private releaseResult?: Promise<{ outcome: ReleaseOutcome }>;
  private readonly objects: BucketObjects;
  private readonly options: ResolvedOptions;
  private readonly audit: AuditWriter | null;

  constructor(init: LockInit) {
    super(init.options.name);
    this.objects = init.objects;
    this.options = init.options;
    this.audit = init.audit;
    this.bucket = init.options.bucket;
    this.identity = init.options.identity;
    this.generation = String(init.object.generation);
    this.metageneration = String(init.object.metageneration);
    this.acquiredAt = init.confirmedAt;
    this.deadline = new LossDeadline(
      lossAfter(init.options.ttlMs, init.options.refreshIntervalMs),
      init.confirmedAt,
      () => this.state === 'held',
      (detail) => this.lose('refresh-failed', detail),
    );
    this.lossAfterMs = this.deadline.afterMs;
    this.deadline.arm();
    this.scheduleRefresh(init.confirmedAt + init.options.refreshIntervalMs);
  }

  /** The metageneration of the last confirmed write (changes at every refresh). */
  get currentMetageneration(): string {
    return this.metageneration;
  }

  /** False once lost or released, and as soon as the loss deadline passed, even before any timer ran. */
  get isHealthy(): boolean {
    return (this.state === 'held' || this.state === 'releasing') && !this.deadline.passed;
  }

  assertHealthy(): void {
    if (this.isHealthy) return;
    if (this.state === 'held') this.lose('refresh-failed', 'no refresh was confirmed before the loss deadline');
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
    this.deadline.stop();
    const { outcome, unconfirmed } = await deleteHeldObject(this.held());
    if (outcome === 'lost') this.lose('taken', 'the lock object changed before release');
    else {
      this.state = 'released';
      this.stop();
      this.record('released', details, unconfirmed);
    }
    await this.audit?.flush(2_000);
    return { outcome };
  }

  /** The object this handle holds, for the requests of lock-object.ts. */
  private held(): HeldObject {
    return {
      objects: this.objects,
      name: this.name,
      generation: this.generation,
      requestTimeoutMs: this.options.requestTimeoutMs,
      metageneration: () => this.metageneration,
      stillOurs: () => !this.deadline.passed,
      reconciled: async () => this.unknownRefresh && (await this.reconcile()),
    };
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
    const { refreshIntervalMs, maxRefreshFailures } = this.options;
    const sentAt = monotonicNow();
    try {
      const obj = await patchExpiry(this.held(), this.options);
      // A release waiting for this refresh must delete the metageneration the refresh created, or its DELETE
      // meets 412 and the lock's own release is reported as a loss.
      if (this.state !== 'held' && !this.releasing()) return;
      this.metageneration = String(obj.metageneration);
      this.deadline.confirm(sentAt);
      this.failures = 0;
      this.unknownRefresh = false;
      if (obj.metadata?.identity !== this.identity) return this.lose('taken', 'the lock object names another holder');
      if (this.releasing()) return;
      this.deadline.arm();
    } catch (err) {
      const status = statusOf(err);
      if (this.releasing()) {
        // The PATCH may have been applied (lost response): the release reconciles a 412 with one GET.
        if (status !== 404 && status !== 412 && status !== 429) this.unknownRefresh = true;
        return;
      }
      if (this.state !== 'held') return;
      if (status === 404) return this.lose('released-by-operator', 'the lock object was deleted');
      if (status === 412) {
        if (this.unknownRefresh && (await this.reconcile())) return this.scheduleRefresh(monotonicNow());
        return this.lose('taken', 'the lock object was replaced or changed');
      }
      if (status !== 429) this.unknownRefresh = true;
      if (++this.failures >= maxRefreshFailures) {
        return this.lose('refresh-failed', `${this.failures} refreshes in a row failed: ${(err as Error).message}`);
      }
    }
    if (this.state === 'held') this.scheduleRefresh(sentAt + refreshIntervalMs);
  }

  /** A method, not a comparison, so TypeScript does not carry a narrowing of `state` across an await. */
  private releasing(): boolean {
    return this.state === 'releasing';
  }

  /** After a refresh of unknown outcome: adopts the object's metageneration when it is still ours. */
  private async reconcile(): Promise<boolean> {
    this.unknownRefresh = false;
    const ours = await ourMetageneration(this.held(), this.identity);
    if (ours !== null) this.metageneration = ours;
    return ours !== null;
  }

  /** Lost once (also by a release that found the object changed): the base aborts `signal`; the audit records it. */
  protected override lose(reason: LockLostReason, detail: string): void {
    if (this.done) return;
    this.state = 'lost';
    super.lose(reason, detail);
    this.record('lost', {});
  }

  protected stopWatching(): void {
    clearTimeout(this.refreshTimer);
    this.deadline.stop();
  }

  private record(event: 'released' | 'lost', details: ReleaseDetails, deleteUnconfirmed = false): void {
    this.audit?.record(holderEvent(this, event, details, monotonicNow() - this.acquiredAt, deleteUnconfirmed));
  }
}
