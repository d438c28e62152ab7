// POST /api/gcs-events, the console's side: the Pub/Sub push parsed and checked (a malformed one is a 400, so Pub/Sub
// does not redeliver it forever), then recorded by the GCS store's notifications (lib/lock/stores/gcs/notifications).
import 'server-only';
import { z } from 'zod';
import { canObserve } from '@/lib/lock/store';
import { NotificationError, RedeliverLater } from '@/lib/lock/stores/gcs/notifications';
import type { Observation } from '@/lib/lock/stores/gcs/notifications';
import type { GcsObjectResource } from '@/lib/lock/types';
import { ApiError } from '../api-error';
import { sources } from '../sources';
import { storeFor } from '../stores';
import { heardOf } from './watch';

export { authenticatePush } from '../auth/push-auth';

const push = z.object({
  message: z.object({
    data: z.string().max(1_000_000).optional(),
    attributes: z.record(z.string(), z.string()),
    messageId: z.string().max(200).optional(),
    publishTime: z.string().max(100).optional(),
  }),
  subscription: z.string().max(500).optional(),
});

const attributesSchema = z.object({
  eventType: z.enum(['OBJECT_FINALIZE', 'OBJECT_DELETE', 'OBJECT_METADATA_UPDATE', 'OBJECT_ARCHIVE']),
  bucketId: z.string().min(3).max(222),
  objectId: z.string().min(1).max(1024),
  objectGeneration: z.string().regex(/^\d{1,20}$/),
  overwroteGeneration: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
  overwrittenByGeneration: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
  payloadFormat: z.string().optional(),
});

/** Parses a push body; a malformed one is a 400 (Pub/Sub must not redeliver it forever). */
export function parsePush(raw: unknown): {
  attributes: z.output<typeof attributesSchema>;
  object?: GcsObjectResource;
  publishTime?: string;
} {
  const body = push.safeParse(raw);
  if (!body.success) throw new ApiError('bad_request', `Not a Pub/Sub push message: ${body.error.issues[0]!.message}`);
  const attributes = attributesSchema.safeParse(body.data.message.attributes);
  if (!attributes.success) {
    const issue = attributes.error.issues[0]!;
    throw new ApiError(
      'bad_request',
      `Not a Cloud Storage notification: attributes.${issue.path.join('.')}: ${issue.message}`,
    );
  }
  let object: GcsObjectResource | undefined;
  if (body.data.message.data) {
    try {
      object = JSON.parse(Buffer.from(body.data.message.data, 'base64').toString('utf8')) as GcsObjectResource;
    } catch {
      throw new ApiError('bad_request', 'message.data is not base64 JSON (payload format JSON_API_V1 expected).');
    }
    if (!object || typeof object !== 'object' || typeof object.name !== 'string') {
      throw new ApiError(
        'bad_request',
        'message.data is not an object resource (payload format JSON_API_V1 expected).',
      );
    }
  }
  return { attributes: attributes.data, object, publishTime: body.data.message.publishTime };
}

/**
 * Records one notification through the store of the configured source it is about (a store with a change feed);
 * a retry-later answers 503 (Pub/Sub redelivers), a malformed one 400.
 */
export async function observe(n: ReturnType<typeof parsePush>): Promise<Observation> {
  const { bucketId, objectId } = n.attributes;
  const about = sources().filter(
    (s) => s.bucket === bucketId && objectId.startsWith(s.prefix) && objectId.length > s.prefix.length,
  );
  const sentAt = Date.parse(n.publishTime ?? '');
  // every open lock stream of those sources reads the object now (refreshes included, which are not recorded)
  for (const source of about)
    heardOf(source, [objectId], Number.isFinite(sentAt) ? sentAt : undefined, 'notifications to /api/gcs-events');
  for (const source of about) {
    const store = await storeFor(source);
    if (!canObserve(store)) continue;
    try {
      return await store.observe(n as never);
    } catch (err) {
      if (err instanceof RedeliverLater) throw new ApiError('storage_unavailable', err.message);
      if (err instanceof NotificationError) throw new ApiError('bad_request', err.message);
      throw err;
    }
  }
  return { written: [], ignored: 'outside the configured sources' };
}
