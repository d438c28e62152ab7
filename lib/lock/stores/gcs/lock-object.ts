// The lock handle's requests that stand on their own: the loss deadline, the release's conditional DELETE with its
// retries, and the reconciliation of a refresh whose response never arrived.
import { Backoff, sleep } from '../../holding/backoff';
import type { ResolvedOptions } from './options';
import type { AuditEvent } from '../../audit/record';
import type { GcsObjectResource } from '../../types';
import type { AuditWriter } from './audit';
import { isTransient, statusOf, type BucketObjects } from './client';

export type ReleaseOutcome = 'released' | 'lost' | 'gone';
export interface ReleaseDetails {
  outcome?: 'ok' | 'error';
  error?: string;
}

/** What a new handle starts from: the object its acquire confirmed. */
export interface LockInit {
  objects: BucketObjects;
  options: ResolvedOptions;
  audit: AuditWriter | null;
  object: GcsObjectResource;
  /** Monotonic time at which the request that confirmed the lock was sent. */
  confirmedAt: number;
}

const RELEASE_ATTEMPTS = 5;

/**
 * Protocol: TTL − max(2 × refresh, TTL/10). At the allowed maximum refresh = TTL/3 that deadline equals one refresh
 * interval, so the holder would be declared lost as its first refresh is sent; the margin is capped at TTL/3 so at
 * least two refresh intervals always fit. Identical for refresh <= TTL/6 (the default is TTL/8).
 */
export const lossAfter = (ttlMs: number, refreshIntervalMs: number): number =>
  ttlMs - Math.max(Math.min(2 * refreshIntervalMs, ttlMs / 3), ttlMs / 10);

export interface HeldObject {
  objects: BucketObjects;
  name: string;
  generation: string;
  requestTimeoutMs: number;
  /** The metageneration of the last confirmed write (a reconciliation may move it). */
  metageneration(): string;
  /** Whether the loss deadline has not passed yet. */
  stillOurs(): boolean;
  /** After a 412: true when a refresh of unknown outcome was ours after all (then the DELETE is retried). */
  reconciled(): Promise<boolean>;
}

/** The release's DELETE, with both preconditions; `unconfirmed`: it found the object gone (claims no delete). */
export async function deleteHeldObject(o: HeldObject): Promise<{ outcome: ReleaseOutcome; unconfirmed: boolean }> {
  const backoff = new Backoff();
  let unknownDelete = false;
  for (let attempt = 1; ; attempt++) {
    try {
      const pre = { ifGenerationMatch: o.generation, ifMetagenerationMatch: o.metageneration() };
      await o.objects.delete(o.name, pre, o.requestTimeoutMs);
      return { outcome: 'released', unconfirmed: false };
    } catch (err) {
      const status = statusOf(err);
      if (status === 404) {
        // Someone else deleted it (gone), or a DELETE of ours whose response was lost did (ours, or an operator's
        // force-release at the same moment, cannot be told apart): either way this release claims no delete
        return { outcome: unknownDelete ? 'released' : 'gone', unconfirmed: true };
      }
      if (status === 412) {
        if (await o.reconciled()) continue;
        return { outcome: 'lost', unconfirmed: false };
      }
      // Preconditions make retries safe; keep trying while the lock is still ours (GCS answers 429 to more than
      // about one write per second per object, which contenders can exhaust right at handover).
      if (!isTransient(err) || (attempt >= RELEASE_ATTEMPTS && !o.stillOurs())) throw err;
      if (status !== 429) unknownDelete = true;
      await sleep(backoff.afterWriteFailure(status));
    }
  }
}

/**
 * After a refresh whose response never arrived, a 412 may be our own applied PATCH. Same generation and our
 * identity means nobody replaced or deleted the object: its metageneration is ours. Null when it is not ours.
 */
export async function ourMetageneration(
  o: Pick<HeldObject, 'objects' | 'name' | 'generation' | 'requestTimeoutMs'>,
  identity: string,
): Promise<string | null> {
  try {
    const current = await o.objects.get(o.name, o.requestTimeoutMs);
    if (!current || String(current.generation) !== o.generation) return null;
    if (current.metadata?.identity !== identity) return null;
    return String(current.metageneration);
  } catch {
    return null;
  }
}

/** One refresh: the expiry moved a TTL ahead (on the store's clock) by a PATCH with both preconditions. */
export function patchExpiry(o: HeldObject, options: Pick<ResolvedOptions, 'ttlMs' | 'refreshIntervalMs'>) {
  const expiresAt = ((o.objects.clock.now() + options.ttlMs) / 1000).toFixed(3);
  const pre = { ifGenerationMatch: o.generation, ifMetagenerationMatch: o.metageneration() };
  return o.objects.patchMetadata(o.name, { expires_at: expiresAt }, pre, Math.min(10_000, options.refreshIntervalMs));
}

/** The holder's own audit event: released (how its work ended) or lost. */
export function holderEvent(
  lock: { name: string; identity: string; generation: string },
  event: 'released' | 'lost',
  details: ReleaseDetails,
  heldMs: number,
  deleteUnconfirmed: boolean,
): AuditEvent {
  return {
    event,
    lock: lock.name,
    identity: lock.identity,
    generation: lock.generation,
    held_ms: String(Math.round(heldMs)),
    outcome: details.outcome,
    error: details.error,
    ...(deleteUnconfirmed ? { delete_confirmed: 'false' as const } : {}),
  };
}
