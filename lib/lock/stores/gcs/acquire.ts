// acquireLock: create with ifGenerationMatch=0; on 412 read the holder; adopt our own lock, take over exactly the
// stale version, or wait with reads (never repeated creates) until it is absent or stale.
import { AuditWriter } from './audit';
import { Backoff, raceAbort, sleep, waitBackoff } from '../../holding/backoff';
import { LockAbortError, LockTimeoutError } from '../../errors';
import { hostname } from 'node:os';
import { BucketObjects, GcsCallError, isTransient, statusOf, type Preconditions } from './client';
import { inspectLock, LOCKBOARD_FORMAT } from '../../objects/inspect';
import { Lock } from './lock';
import { resolveOptions, type ResolvedOptions } from '../../holding/options';
import { monotonicNow, setLongTimeout } from '../../time';
import type { AcquireOptions, GcsObjectResource, LockInfo } from '../../types';

const IMMEDIATE_RETRIES = 3;

export async function acquireLock(options: AcquireOptions): Promise<Lock> {
  const o = resolveOptions(options);
  const objects = new BucketObjects(o.storage, o.bucket);
  const audit = o.auditPrefix === null ? null : new AuditWriter(objects, o.auditPrefix);
  const started = monotonicNow();
  const stop = stopSignal(o, started);
  const backoff = new Backoff();
  const poll = waitBackoff();
  let immediate = 0;
  let tryCreate = true;
  let holder: LockInfo | null = null;

  const done = (
    object: GcsObjectResource,
    sentAt: number,
    event: 'acquired' | 'took-over',
    previous?: LockInfo,
  ): Lock => {
    stop.dispose();
    audit?.record({
      event,
      lock: o.name,
      identity: o.identity,
      generation: String(object.generation),
      previous_identity: previous?.identity,
      previous_generation: previous?.generation,
      stale_ms: previous?.expiresAt
        ? String(Math.max(0, Math.round(objects.clock.now() - Date.parse(previous.expiresAt))))
        : undefined,
    });
    return new Lock({ objects, options: o, audit, object, confirmedAt: sentAt });
  };
  let lastStorageError: unknown;
  /** Sleeps before the next attempt; with `timeoutMs: 0` there is none: report the holder, or the storage error. */
  const wait = async (ms: number, cause?: unknown): Promise<void> => {
    if (cause !== undefined) {
      lastStorageError = cause;
      o.onStorageError?.(cause as Error, ms);
    } else lastStorageError = undefined;
    if (o.timeoutMs === 0) {
      if (cause !== undefined && holder === null) throw cause;
      throw new LockTimeoutError(o.name, holder, Math.round(monotonicNow() - started));
    }
    await sleep(ms, stop.signal);
  };

  try {
    for (;;) {
      if (tryCreate) {
        const sentAt = monotonicNow();
        try {
          const created = await raceAbort(createLockObject(o, objects, { ifGenerationMatch: 0 }), stop.signal);
          return done(created, sentAt, 'acquired');
        } catch (err) {
          // 412: someone holds it. A transient failure leaves the outcome unknown: read before creating again.
          if (statusOf(err) !== 412 && !isTransient(err)) throw err;
          if (isTransient(err)) await wait(backoff.afterWriteFailure(statusOf(err)), err);
        }
      }
      tryCreate = false;

      let current: GcsObjectResource | null;
      try {
        current = await raceAbort(objects.get(o.name, o.requestTimeoutMs), stop.signal);
      } catch (err) {
        if (!isTransient(err)) throw err;
        await wait(backoff.next(), err);
        continue;
      }
      if (!current) {
        tryCreate = true;
        if (++immediate > IMMEDIATE_RETRIES) await wait(poll.next());
        continue;
      }
      const now = objects.clock.now();
      holder = inspectLock(current, now, { bucket: o.bucket });
      const pre = {
        ifGenerationMatch: String(current.generation),
        ifMetagenerationMatch: String(current.metageneration),
      };

      if (holder.identity === o.identity && holder.format === 'lockboard') {
        const sentAt = monotonicNow();
        try {
          const adopted = await raceAbort(
            objects.patchMetadata(o.name, { expires_at: expiresAt(o, objects) }, pre, o.requestTimeoutMs),
            stop.signal,
          );
          return done(adopted, sentAt, 'acquired');
        } catch (err) {
          if (statusOf(err) !== 412 && !isTransient(err)) throw err;
          if (isTransient(err)) await wait(backoff.afterWriteFailure(statusOf(err)), err);
          continue;
        }
      }
      if (holder.health === 'expired' || holder.health === 'free') {
        const sentAt = monotonicNow();
        try {
          const taken = await raceAbort(createLockObject(o, objects, pre), stop.signal);
          return done(taken, sentAt, 'took-over', holder);
        } catch (err) {
          if (statusOf(err) !== 412 && !isTransient(err)) throw err;
          if (isTransient(err)) await wait(backoff.afterWriteFailure(statusOf(err)), err);
          continue;
        }
      }
      o.onWait?.(holder);
      const untilStale = holder.expiresAt ? Date.parse(holder.expiresAt) - now + 100 : Infinity;
      await wait(Math.max(0, Math.min(poll.next(), untilStale)));
    }
  } catch (err) {
    stop.dispose();
    // Timed out while storage was failing (unreachable, 5xx): that is the cause, not contention.
    if (err === stop.timeoutReason && lastStorageError !== undefined) throw lastStorageError;
    if (err === stop.timeoutReason) throw new LockTimeoutError(o.name, holder, Math.round(monotonicNow() - started));
    if (err === stop.abortReason) throw new LockAbortError(o.name, options.signal?.reason);
    if (err instanceof GcsCallError && err.status === 403) {
      throw new GcsCallError(403, `Permission denied on bucket "${o.bucket}": ${err.message}`);
    }
    throw err;
  }
}

/** One signal for "stop waiting": the caller's abort or our timeout, whichever comes first. */
function stopSignal(o: ResolvedOptions, started: number) {
  const controller = new AbortController();
  const timeoutReason = new Error('timeout');
  const abortReason = new Error('abort');
  let cancelTimer = (): void => {};
  if (o.timeoutMs !== undefined && o.timeoutMs > 0) {
    // A wait of 30 days is legitimate; a plain setTimeout past 2^31 ms would fire at once.
    cancelTimer = setLongTimeout(
      () => controller.abort(timeoutReason),
      Math.max(0, started + o.timeoutMs - monotonicNow()),
    );
  }
  const onAbort = (): void => controller.abort(abortReason);
  if (o.signal?.aborted) controller.abort(abortReason);
  else o.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timeoutReason,
    abortReason,
    dispose(): void {
      cancelTimer();
      o.signal?.removeEventListener('abort', onAbort);
    },
  };
}

function expiresAt(o: ResolvedOptions, objects: BucketObjects): string {
  return ((objects.clock.now() + o.ttlMs) / 1000).toFixed(3);
}

/** The lock object's custom metadata; the body is a JSON copy of it. */
function lockMetadata(o: ResolvedOptions, objects: BucketObjects): Record<string, string> {
  const metadata: Record<string, string> = {
    identity: o.identity,
    expires_at: expiresAt(o, objects),
    ttl_ms: String(o.ttlMs),
    refresh_ms: String(o.refreshIntervalMs),
    host: hostname(),
    pid: String(process.pid),
    format: LOCKBOARD_FORMAT,
  };
  if (o.purpose) metadata.purpose = o.purpose;
  return metadata;
}

function createLockObject(o: ResolvedOptions, objects: BucketObjects, pre: Preconditions): Promise<GcsObjectResource> {
  const metadata = lockMetadata(o, objects);
  return objects.create(o.name, JSON.stringify(metadata), metadata, pre, o.requestTimeoutMs);
}
