// acquireLock / withLock: create with ifGenerationMatch=0; on 412 read the holder; adopt our own lock, take over exactly
// the stale version, or wait with reads (never repeated creates) until it is absent or stale. Each turn is one step
// below, taken through the shared wait (holding/wait.ts); the turn reads the holder itself, so no extra read is sent.
import { AuditWriter } from './audit';
import { Backoff, raceAbort, sleep, waitBackoff } from '../../holding/backoff';
import { holdAndReport } from '../../holding/hold';
import { takeTurns, type Turn } from '../../holding/wait';
import { LockAbortError, LockTimeoutError } from '../../errors';
import { hostname } from 'node:os';
import { BucketObjects, GcsCallError, isTransient, statusOf, type Preconditions } from './client';
import { inspectLock, LOCKBOARD_FORMAT } from '../../objects/inspect';
import { Lock } from './lock';
import { resolveOptions, type AcquireOptions, type ResolvedOptions } from './options';
import { monotonicNow, setLongTimeout } from '../../time';
import type { GcsObjectResource, LockInfo } from '../../types';

const IMMEDIATE_RETRIES = 3;

/** One acquire in progress: what its turns share. */
interface Attempt {
  o: ResolvedOptions;
  objects: BucketObjects;
  audit: AuditWriter | null;
  started: number;
  stop: ReturnType<typeof stopSignal>;
  backoff: Backoff;
  poll: Backoff;
  /** Reads that found no object since the last create: the first few create again at once. */
  immediate: number;
  tryCreate: boolean;
  holder: LockInfo | null;
  lastStorageError: unknown;
}

export async function acquireLock(options: AcquireOptions): Promise<Lock> {
  const a = startAttempt(resolveOptions(options));
  try {
    return await takeTurns(
      () => nextTurn(a),
      (ms, cause) => pauseBefore(a, ms, cause),
    );
  } catch (err) {
    a.stop.dispose();
    throw acquireError(a, err, options.signal);
  }
}

/** Runs `fn` while holding the lock; releases after it and records ok/error in the audit trail. */
export async function withLock<T>(options: AcquireOptions, fn: (lock: Lock) => Promise<T>): Promise<T> {
  return holdAndReport(await acquireLock(options), fn);
}

function startAttempt(o: ResolvedOptions): Attempt {
  const objects = new BucketObjects(o.storage, o.bucket);
  const started = monotonicNow();
  return {
    o,
    objects,
    audit: o.auditPrefix === null ? null : new AuditWriter(objects, o.auditPrefix),
    started,
    stop: stopSignal(o, started),
    backoff: new Backoff(),
    poll: waitBackoff(),
    immediate: 0,
    tryCreate: true,
    holder: null,
    lastStorageError: undefined,
  };
}

/** Creates the lock object when it may be absent, else reads the holder and acts on what it finds. */
function nextTurn(a: Attempt): Promise<Turn<Lock>> {
  if (!a.tryCreate) return readTurn(a);
  a.tryCreate = false;
  // 412: someone holds it. A transient failure leaves the outcome unknown: read before creating again.
  return writeTurn(a, () => createLockObject(a.o, a.objects, { ifGenerationMatch: 0 }), 'acquired');
}

async function readTurn(a: Attempt): Promise<Turn<Lock>> {
  const { o, objects } = a;
  let current: GcsObjectResource | null;
  try {
    current = await raceAbort(objects.get(o.name, o.requestTimeoutMs), a.stop.signal);
  } catch (err) {
    if (!isTransient(err)) throw err;
    return { pauseMs: a.backoff.next(), cause: err };
  }
  if (!current) {
    a.tryCreate = true;
    return ++a.immediate > IMMEDIATE_RETRIES ? { pauseMs: a.poll.next() } : null;
  }
  const now = objects.clock.now();
  const holder = (a.holder = inspectLock(current, now, { bucket: o.bucket }));
  const pre = { ifGenerationMatch: String(current.generation), ifMetagenerationMatch: String(current.metageneration) };
  if (holder.identity === o.identity && holder.format === 'lockboard') {
    const patch = () => objects.patchMetadata(o.name, { expires_at: expiresAt(o, objects) }, pre, o.requestTimeoutMs);
    return writeTurn(a, patch, 'acquired');
  }
  if (holder.health === 'expired' || holder.health === 'free')
    return writeTurn(a, () => createLockObject(o, objects, pre), 'took-over', holder);
  o.onWait?.(holder);
  const untilStale = holder.expiresAt ? Date.parse(holder.expiresAt) - now + 100 : Infinity;
  return { pauseMs: Math.max(0, Math.min(a.poll.next(), untilStale)) };
}

/** One conditional write (create, adopt or take over): the lock, or on a 412 read again; on a transient failure, pause. */
async function writeTurn(
  a: Attempt,
  write: () => Promise<GcsObjectResource>,
  event: 'acquired' | 'took-over',
  previous?: LockInfo,
): Promise<Turn<Lock>> {
  const sentAt = monotonicNow();
  try {
    const object = await raceAbort(write(), a.stop.signal);
    return { lock: held(a, object, sentAt, event, previous) };
  } catch (err) {
    if (statusOf(err) !== 412 && !isTransient(err)) throw err;
    return isTransient(err) ? { pauseMs: a.backoff.afterWriteFailure(statusOf(err)), cause: err } : null;
  }
}

function held(
  a: Attempt,
  object: GcsObjectResource,
  sentAt: number,
  event: 'acquired' | 'took-over',
  previous?: LockInfo,
): Lock {
  const { o, objects } = a;
  a.stop.dispose();
  a.audit?.record({
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
  return new Lock({ objects, options: o, audit: a.audit, object, confirmedAt: sentAt });
}

/** Sleeps before the next turn; with `timeoutMs: 0` there is none: report the holder, or the storage error. */
async function pauseBefore(a: Attempt, ms: number, cause: unknown): Promise<void> {
  if (cause !== undefined) {
    a.lastStorageError = cause;
    a.o.onStorageError?.(cause as Error, ms);
  } else a.lastStorageError = undefined;
  if (a.o.timeoutMs === 0) {
    if (cause !== undefined && a.holder === null) throw cause;
    throw new LockTimeoutError(a.o.name, a.holder, Math.round(monotonicNow() - a.started));
  }
  await sleep(ms, a.stop.signal);
}

/** What an acquire that stopped throws: the storage error behind a timeout, the timeout, the abort, or the error. */
function acquireError(a: Attempt, err: unknown, signal: AbortSignal | undefined): unknown {
  const { o, stop } = a;
  // Timed out while storage was failing (unreachable, 5xx): that is the cause, not contention.
  if (err === stop.timeoutReason && a.lastStorageError !== undefined) return a.lastStorageError;
  if (err === stop.timeoutReason) return new LockTimeoutError(o.name, a.holder, Math.round(monotonicNow() - a.started));
  if (err === stop.abortReason) return new LockAbortError(o.name, signal?.reason);
  if (err instanceof GcsCallError && err.status === 403)
    return new GcsCallError(403, `Permission denied on bucket "${o.bucket}": ${err.message}`);
  return err;
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
