// The request schemas of the routes that had them inline, in one place: the routes validate with them and the OpenAPI
// document (GET /api/openapi.json) is generated from them.
import { z } from 'zod';
import { DEFAULT_LIMITS } from '@/lib/cli/discover/budget';
import { MAX_BATCH, reasonField, seenLock } from './release';

/** GET /api/locks/<name...>: the bucket, and the name whole where it has `.` or `..` segments. */
export const lockGetQuery = z.object({
  bucket: z.string().max(222).optional(),
  name: z.string().min(1).max(1024).optional(),
});

/** GET /api/lock-stream: the lock named and its bucket. */
export const lockStreamQuery = z.object({ name: z.string().min(1).max(1024), bucket: z.string().max(222).optional() });

/** POST /api/locks/release: the version seen, and why. */
export const releaseBody = seenLock.extend({ reason: reasonField });

/** POST /api/locks/release-batch: each lock validated alone (one malformed entry is refused by itself). */
export const releaseBatchBody = z.object({
  reason: reasonField,
  locks: z.array(z.unknown()).min(1, 'list at least one lock').max(MAX_BATCH, `at most ${MAX_BATCH} locks per batch`),
});

/** POST /api/webhooks: the webhook to send a test message to. */
export const webhookTestBody = z.object({ webhook: z.string().min(1).max(64) });

/** POST /api/sources/discover: the bounds of each target, at most the CLI's defaults (lib/cli/discover/budget.ts). */
const atMost = (most: number) => z.number().int().min(1).max(most).optional();
export const discoverBody = z
  .object({
    sample: atMost(DEFAULT_LIMITS.sample),
    maxRequests: atMost(DEFAULT_LIMITS.maxRequests),
    maxSeconds: atMost(DEFAULT_LIMITS.maxSeconds),
  })
  .strict();

/** GET /api/audit: the page and the export, beside the window (lib/server/audit/events.ts windowSchema). */
export const auditPageQuery = z.object({
  format: z.enum(['csv']).optional(),
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(5_000).optional(),
});
