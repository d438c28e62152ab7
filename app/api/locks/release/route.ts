// POST /api/locks/release – force-release one generation of a lock (operators); never deletes a successor's lock
import { z } from 'zod';
import { forceReleaseLock } from '@/lib/lock';
import { env } from '@/lib/server/env';
import { ApiError, json, readJson, withRole } from '@/lib/server/http';
import { invalidateListings } from '@/lib/server/list-cache';
import { countForceRelease, countGcs } from '@/lib/server/metrics';
import { sourceOfLock } from '@/lib/server/sources';
import { storage } from '@/lib/server/storage';

const decimal = z.string().regex(/^\d{1,20}$/, 'must be a decimal integer string');
const body = z.object({
  name: z.string().min(1, 'is required').max(1024, 'must be at most 1024 characters'),
  /** Which bucket; optional when only one configured bucket has a source containing the name. */
  bucket: z.string().max(222).optional(),
  generation: decimal,
  metageneration: decimal.optional(),
  reason: z
    .string()
    .trim()
    .min(1, 'is required: say why you clear this lock')
    .max(500, 'must be at most 500 characters'),
});

const MESSAGES = {
  changed: 'The lock changed hands since you viewed it; nothing was deleted.',
  refreshed: 'The holder refreshed since you viewed it, so it is alive; nothing was deleted.',
  gone: 'The lock was already released.',
  'not-a-lock': 'This object is not a lock Lockboard recognises (data or unknown format); nothing was deleted.',
};

export const POST = withRole('operator', async (req, { user }) => {
  const input = await readJson(req, body);
  const source = sourceOfLock(input.name, input.bucket);
  countGcs('objects.delete');
  // The audit event goes to the lock's own bucket, beside the holders' events
  const result = await forceReleaseLock({
    storage: storage(),
    ...input,
    bucket: source.bucket,
    audit: { prefix: env().LOCKBOARD_AUDIT_PREFIX, operator: user.email, reason: input.reason },
  });
  countForceRelease(result.outcome);
  invalidateListings();
  const recorded = { audit: result.audit };
  if (result.outcome === 'released') {
    return json({
      outcome: 'released',
      confirmed: result.confirmed !== false,
      message:
        result.confirmed === false
          ? 'The lock is released. The response to our DELETE was lost and its retry found the lock already gone, so it was removed either by this request or, at the same moment, by its holder.'
          : 'Released.',
      ...recorded,
    });
  }
  const code = result.outcome === 'gone' ? 'gone' : result.outcome === 'not-a-lock' ? 'not_a_lock' : 'conflict';
  throw new ApiError(code, MESSAGES[result.outcome], {
    outcome: result.outcome,
    current: result.current,
    ...recorded,
  });
});
