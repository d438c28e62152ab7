// Force-release for the console's routes: one lock (POST /api/locks/release) or a batch (POST
// /api/locks/release-batch), one path for every store: `{ source, name, version, reason }` (GCS also accepts
// `generation` / `metageneration`), the source check, the store's own conditional mutation, audit and metrics.
import 'server-only';
import { assertVerdictAllows } from './release-verdict';
import { z } from 'zod';
import { OWNER_DIGEST, ownerDigest } from '@/lib/lock/audit/owner-digest';
import type { LockView, StoreReleaseResult } from '@/lib/lock/store';
import { invalidateOpenSlices } from './audit/events';
import { ApiError } from './api-error';
import { releasePartners } from './pairs';
import { countForceRelease } from './metrics/metrics';
import { storeFor } from './stores';
import { changedOnThisReplica } from './live/watch';
import { sourceById, sourceOfLock, type Source } from './sources';
import { lockAddress } from '@/lib/lock/address';
import { releaseRight, type Access } from './auth/access';

export { OUTCOME_MESSAGES, UNCONFIRMED_MESSAGE } from '@/lib/lock/outcomes';

/** Locks per batch release (POST /api/locks/release-batch). */
export const MAX_BATCH = 100;

const decimal = z.string().regex(/^\d{1,20}$/, 'must be a decimal integer string');

/** One lock version as the operator saw it. */
export const seenLock = z.object({
  name: z.string().min(1, 'is required').max(1024, 'must be at most 1024 characters'),
  /** The configured source the lock was listed under (its id, as shown). */
  source: z.string().max(1100).optional(),
  /** Which bucket; optional when only one configured bucket has a source containing the name. */
  bucket: z.string().max(222).optional(),
  /** The version seen, exactly as shown with the lock. */
  version: z
    .string()
    .min(1, 'must be the version shown with the lock')
    .max(2000, 'must be the version shown with the lock')
    .optional(),
  /** GCS's older form of the version: the generation (and metageneration) seen. */
  generation: decimal.optional(),
  metageneration: decimal.optional(),
  /** The owner seen, as its digest (lib/owner-digest.ts): a newer version by the same owner is `refreshed`. */
  owner: z.string().regex(OWNER_DIGEST, 'must be the owner digest of the lock seen (16 hex digits)').optional(),
  /** The older form: the owner's full text (any length the body allows). */
  identity: z.string().optional(),
  /** The operator accepts the lock's `terms.twoLeaders` (a leader election's old leader keeps leading). */
  acceptTwoLeaders: z.boolean().optional(),
  /** The operator acknowledges that the holder is judged alive ("clearing makes two holders"): required then (409). */
  acknowledgeAlive: z.boolean().optional(),
  /** Release only if the holder is judged gone at release time (bulk "Release all gone"): otherwise 409. */
  ifGone: z.boolean().optional(),
});
export type SeenLock = z.output<typeof seenLock>;

export const reasonField = z
  .string()
  .trim()
  .min(1, 'is required: say why you clear this lock')
  .max(500, 'must be at most 500 characters');

export interface ConsoleReleaseResult {
  outcome: StoreReleaseResult['outcome'];
  /** The store's own words for the outcome (StoreReleaseResult.detail). */
  detail?: string;
  current?: StoreReleaseResult['current'] & { bucket: string };
  confirmed?: boolean;
  audit: { attempt?: string; outcome?: string; outcomeError?: string };
  /** The same lock in other stores, released with it. */
  pairs?: { source: string; name: string; outcome: string }[];
}

/**
 * Releases exactly the version seen through the lock's store, auditing the attempt before the mutation. Throws
 * ApiError for a name outside the sources or a missing version, VersionShapeError (400) for a malformed one, and
 * AuditWriteError when the attempt cannot be recorded (nothing released).
 */
export async function forceReleasePinned(
  seen: SeenLock,
  operator: string,
  reason: string,
  access: Access,
): Promise<ConsoleReleaseResult> {
  const source = sourceOf(seen);
  assertMayRelease(access, source, seen.name);
  if (source.readOnly)
    throw new ApiError('conflict', `${source.id} is read-only: ${source.readOnly} Nothing was deleted.`);
  const version =
    seen.version ??
    (seen.generation !== undefined
      ? `${seen.generation}${seen.metageneration !== undefined ? `.${seen.metageneration}` : ''}`
      : undefined);
  if (version === undefined)
    throw new ApiError('bad_request', `"version" is required for ${source.id} (the lock's version as shown).`);
  const store = await storeFor(source);
  // one inspection, the holder read now, for both checks (a lock file's is a scan of every process)
  const now = await store.inspect(seen.name);
  if (releaseRight(access, lockAddress(source, seen.name)) !== 'any') assertGoneOrExpired(now, source, seen.name);
  assertVerdictAllows(now, { ...seen, version });
  const owner = seen.owner ?? (seen.identity !== undefined ? ownerDigest(seen.identity) : undefined);
  const result = await store
    .forceRelease({
      name: seen.name,
      version,
      reason,
      operator,
      ...(owner ? { ownerDigest: owner } : {}),
      ...(seen.acceptTwoLeaders ? { acceptTwoLeaders: true } : {}),
    })
    .finally(invalidateOpenSlices); // the trail has the attempt, and an outcome, even when the release threw
  countForceRelease(result.outcome);
  // the same lock kept in another store (Terraform's migration window) is released with it, by that store's rule
  const allowed = (s: Source, name: string) => releaseRight(access, lockAddress(s, name)) === 'any';
  const pairs = result.released
    ? await releasePartners(result.released, source, operator, reason, allowed).catch(() => [])
    : [];
  changedOnThisReplica(source, [seen.name]); // fresh listings; every open stream sees the release at once
  invalidateOpenSlices(); // the partners' releases added to the trails too
  return {
    ...(pairs.length ? { pairs } : {}),
    outcome: result.outcome,
    ...(result.detail ? { detail: result.detail } : {}),
    ...(result.current ? { current: { ...result.current, bucket: source.bucketId } } : {}),
    ...(result.confirmed === false ? { confirmed: false } : {}),
    audit: {
      ...(result.audit[0] ? { attempt: result.audit[0] } : {}),
      ...(result.audit[1] ? { outcome: result.audit[1] } : {}),
      ...(result.auditError ? { outcomeError: result.auditError } : {}),
    },
  };
}

/** The source holding the lock: in the named source's container when the request names one, else found by name. */
export function sourceOf(seen: Pick<SeenLock, 'name' | 'source' | 'bucket'>) {
  if (seen.source === undefined) return sourceOfLock(seen.name, seen.bucket);
  const named = sourceById(seen.source);
  if (!named) throw new ApiError('bad_request', `Source ${JSON.stringify(seen.source)} is not configured.`);
  return sourceOfLock(seen.name, named.bucketId);
}

/** 403 for a lock no releaser or operator grant of the caller covers (before anything is read or written). */
export function assertMayRelease(access: Access, source: Source, name: string): void {
  const address = lockAddress(source, name);
  if (releaseRight(access, address) === null)
    throw new ApiError(
      'forbidden',
      `You may not release ${address}: none of your grants gives releaser or operator over it.`,
      { address },
    );
}

/** A releaser clears only a lock expired by its format's rule, or gone (its holder's process is no more). */
function assertGoneOrExpired(view: LockView | null, source: Source, name: string): void {
  const verdict = (view as { verdict?: unknown } | null)?.verdict;
  if (view && (view.health === 'expired' || verdict === 'gone')) return;
  const address = lockAddress(source, name);
  throw new ApiError(
    'forbidden',
    `As a releaser you may release ${address} only once it has expired or its holder is gone; it is ${view ? view.health : 'not held'}. Ask an operator.`,
    { address },
  );
}
