// Force-release for the console's routes: one lock (POST /api/locks/release) or a batch (POST
// /api/locks/release-batch), with the same validation, source check, audit and metrics.
import 'server-only';
import { z } from 'zod';
import { forceReleaseLock, type ForceReleaseResult } from '@/lib/lock';
import { env } from './env';
import { invalidateListings } from './list-cache';
import { countForceRelease, countGcs } from './metrics';
import { ApiError } from './http';
import { invalidateStoreListings, storeFor } from './stores';
import { sourceOfLock, type Source } from './sources';
import { storage } from './storage';

/** Locks per batch release (POST /api/locks/release-batch). */
export const MAX_BATCH = 100;

const decimal = z.string().regex(/^\d{1,20}$/, 'must be a decimal integer string');

/** One lock generation as the operator saw it. */
export const seenLock = z.object({
  name: z.string().min(1, 'is required').max(1024, 'must be at most 1024 characters'),
  /** Which bucket; optional when only one configured bucket has a source containing the name. */
  bucket: z.string().max(222).optional(),
  /** GCS: the generation (and metageneration) seen. */
  generation: decimal.optional(),
  metageneration: decimal.optional(),
  /** Other stores: the opaque version seen (S3: ETAG.MILLIS). */
  version: z
    .string()
    .min(1, 'must be the version shown with the lock')
    .max(2000, 'must be the version shown with the lock')
    .optional(),
  /** The owner seen: a newer version by the same owner is reported as `refreshed`. */
  identity: z.string().max(512).optional(),
});
export type SeenLock = z.output<typeof seenLock>;

export const reasonField = z
  .string()
  .trim()
  .min(1, 'is required: say why you clear this lock')
  .max(500, 'must be at most 500 characters');

export const OUTCOME_MESSAGES = {
  released: 'Released.',
  changed: 'The lock changed hands since you viewed it; nothing was deleted.',
  refreshed: 'The holder refreshed since you viewed it, so it is alive; nothing was deleted.',
  gone: 'The lock was already released.',
  'not-a-lock': 'This object is not a lock Lockboard recognises (data or unknown format); nothing was deleted.',
};

export const UNCONFIRMED_MESSAGE =
  'The lock is released. The response to our DELETE was lost and its retry found the lock already gone, so it was removed either by this request or, at the same moment, by its holder.';

/**
 * Releases exactly the generation (and metageneration) seen, in the lock's own bucket, auditing the attempt before
 * the DELETE. Throws ApiError for a name outside the sources and AuditWriteError when the attempt cannot be recorded.
 */
export async function releaseSeen(seen: SeenLock, operator: string, reason: string): Promise<ForceReleaseResult> {
  const source = sourceOfLock(seen.name, seen.bucket);
  if (source.store !== 'gcs') return releaseInStore(source, seen, operator, reason);
  if (seen.generation === undefined)
    throw new ApiError('bad_request', `"generation" is required for ${source.id} (the lock's generation as shown).`);
  countGcs('objects.delete');
  const result = await forceReleaseLock({
    storage: storage(),
    name: seen.name,
    generation: seen.generation,
    metageneration: seen.metageneration,
    bucket: source.bucket,
    // The audit event goes to the lock's own bucket, beside the holders' events
    audit: { prefix: env().LOCKBOARD_AUDIT_PREFIX, operator, reason },
  });
  countForceRelease(result.outcome);
  invalidateListings();
  return result;
}

/** S3, Redis: the store's own conditional mutation on the version seen, audited before (stores.md). */
async function releaseInStore(
  source: Source,
  seen: SeenLock,
  operator: string,
  reason: string,
): Promise<ForceReleaseResult> {
  if (source.readOnly) {
    throw new ApiError(
      'conflict',
      `${source.id} is read-only: its endpoint is configured as lacking conditional deletes, and Lockboard never sends an unconditional DELETE. Nothing was deleted.`,
    );
  }
  if (seen.version === undefined)
    throw new ApiError('bad_request', `"version" is required for ${source.id} (the lock's version as shown).`);
  // An AuditWriteError (the attempt could not be recorded, nothing deleted) goes to the route's error mapping
  const result = await (
    await storeFor(source)
  ).forceRelease({
    name: seen.name,
    version: seen.version,
    reason,
    operator,
    identity: seen.identity,
  });
  countForceRelease(result.outcome);
  invalidateStoreListings();
  return {
    outcome: result.outcome,
    ...(result.current ? { current: { ...result.current, bucket: source.bucketId } } : {}),
    audit: { attempt: result.audit[0], outcome: result.audit[1] },
  };
}
