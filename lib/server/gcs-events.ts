// Cloud Storage notifications (Pub/Sub push, payload JSON_API_V1) turned into observed audit events, for locks of
// every format and for deletions made outside Lockboard. GCS publishes each change at least once (a second
// publication is a new message with its own messageId and publishTime) and Pub/Sub delivers each message at least
// once, out of order, to any replica: an event's name comes from the change alone (bucket, object, generation,
// metageneration, kind, and the change's own time) and is created with ifGenerationMatch=0, so a redelivery, a
// second publication or a second replica writes nothing new.
//
// Metadata updates (OBJECT_METADATA_UPDATE: every refresh of every lock) are not stored: one write per refresh would
// cost more than the locks themselves, and the live state is read from the bucket anyway. Creates and deletes are
// the churn that matters (who held what, from when to when, and who deleted it).
import 'server-only';
import { createHash } from 'node:crypto';
import { OAuth2Client } from 'google-auth-library';
import { z } from 'zod';
import { auditObjectName, classifyObject, listAuditEvents } from '@/lib/lock';
import { BucketObjects, statusOf } from '@/lib/lock/stores/gcs/client';
import { objectViewOf } from '@/lib/lock/objects/inspect';
import { bodyFor } from '@/lib/lock/stores/gcs/list';
import type { GcsObjectResource } from '@/lib/lock/types';
import { env } from './env';
import { ApiError, tokenMatches } from './http';
import { gcsSources, isAuditObject } from './sources';
import { storage } from './storage';

/** A Lockboard lock deleted with no Lockboard release recorded within this long is `deleted-outside`. */
export const RELEASE_GRACE_MS = 15_000;

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

const oauth = new OAuth2Client();

/**
 * 401 unless the push is authenticated: a Google-signed OIDC token for the configured audience and push service
 * account (production), or the configured shared token as `?token=` or a Bearer token (emulator and tests).
 */
export async function authenticatePush(req: Request): Promise<void> {
  const config = env();
  const bearer = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1];
  const shared = config.LOCKBOARD_PUSH_TOKEN;
  if (shared) {
    const given = new URL(req.url).searchParams.get('token') ?? bearer ?? '';
    if (tokenMatches(given, shared)) return;
  }
  const audience = config.LOCKBOARD_PUSH_AUDIENCE;
  const account = config.LOCKBOARD_PUSH_SERVICE_ACCOUNT;
  if (audience && account && bearer) {
    try {
      const ticket = await oauth.verifyIdToken({ idToken: bearer, audience });
      const claims = ticket.getPayload();
      const issuer = claims?.iss;
      if (
        (issuer === 'https://accounts.google.com' || issuer === 'accounts.google.com') &&
        claims?.email === account &&
        claims.email_verified === true
      )
        return;
    } catch {
      // not a valid Google-signed token for this audience: refused below
    }
  }
  if (!shared && !(audience && account)) {
    throw new ApiError(
      'not_found',
      'GCS notifications are not enabled: set LOCKBOARD_PUSH_AUDIENCE and LOCKBOARD_PUSH_SERVICE_ACCOUNT (or LOCKBOARD_PUSH_TOKEN for the emulator).',
    );
  }
  throw new ApiError('unauthorized', 'The push is not authenticated for this console.');
}

export interface Observation {
  /** What was written (object names), or why nothing was. */
  written: string[];
  ignored?: string;
}

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

/** Records one notification. Storage failures throw (the route answers 5xx, so Pub/Sub redelivers). */
export async function observe(n: ReturnType<typeof parsePush>): Promise<Observation> {
  const { attributes: a, object } = n;
  const inSource = gcsSources().some(
    (s) => s.bucket === a.bucketId && a.objectId.startsWith(s.prefix) && a.objectId.length > s.prefix.length,
  );
  if (!inSource) return { written: [], ignored: 'outside the configured sources' };
  if (isAuditObject(a.objectId)) return { written: [], ignored: 'an audit event' };
  if (a.eventType !== 'OBJECT_FINALIZE' && a.eventType !== 'OBJECT_DELETE') {
    return { written: [], ignored: `${a.eventType} is not stored (refreshes would cost one write each)` };
  }
  // A delete that is half of an overwrite (a takeover) is described by the create that replaced it
  if (a.eventType === 'OBJECT_DELETE' && a.overwrittenByGeneration) return { written: [], ignored: 'overwritten' };
  if (!object) throw new ApiError('bad_request', 'message.data is missing: use payload format JSON_API_V1.');
  const objects = new BucketObjects(storage(), a.bucketId);
  const resource = { ...object, name: a.objectId, generation: a.objectGeneration } as GcsObjectResource;
  // After a delete the body is gone: only a copy this replica read before (cached per generation) can help
  const body = await bodyFor(objects, resource, { cachedOnly: a.eventType === 'OBJECT_DELETE' });
  const kind = classifyObject(objectViewOf(resource, body));
  if (kind.kind !== 'lock') return { written: [], ignored: kind.kind === 'data' ? 'a data object' : kind.reason };
  const identity = kind.reading.identity;
  const format = kind.format.id;
  const when = await changeTime(objects, a, object, n.publishTime);
  const base = { lock: a.objectId, generation: a.objectGeneration, format, ...(identity ? { identity } : {}) };
  const written: string[] = [];
  if (a.eventType === 'OBJECT_FINALIZE') {
    written.push(
      await writeOnce(objects, when, 'observed-created', String(object.metageneration ?? 1), {
        ...base,
        ...(a.overwroteGeneration ? { previous_generation: a.overwroteGeneration, outcome: 'took-over' } : {}),
      }),
    );
    return { written };
  }
  written.push(await writeOnce(objects, when, 'observed-deleted', String(object.metageneration ?? 1), base));
  if (format === 'lockboard') {
    const released = await lockboardRelease(objects, a.objectId, a.objectGeneration, when);
    if (!released) {
      // The holder's own `released` event is written just after its DELETE: wait for it before judging
      if (Date.now() - when < RELEASE_GRACE_MS) {
        throw new ApiError('storage_unavailable', 'Waiting for the holder’s release event; redeliver later.');
      }
      written.push(await writeOnce(objects, when, 'deleted-outside', String(object.metageneration ?? 1), base));
    }
  }
  return { written };
}

/**
 * When the change happened, the same for every publication of it: the payload's own timeCreated (a create) or
 * timeDeleted (a delete). A payload without it (GCS omits timeDeleted on some deletes) gets the time of the first
 * delivery that reached any replica, fixed in a marker object named by the change alone.
 */
async function changeTime(
  objects: BucketObjects,
  a: z.output<typeof attributesSchema>,
  object: GcsObjectResource,
  publishTime: string | undefined,
): Promise<number> {
  const own = a.eventType === 'OBJECT_DELETE' ? (object as { timeDeleted?: string }).timeDeleted : object.timeCreated;
  const stable = Date.parse(own ?? '');
  if (Number.isFinite(stable)) return stable;
  const published = Date.parse(publishTime ?? '');
  const first = Number.isFinite(published) ? published : Date.now();
  const change = eventKey([
    objects.bucket,
    a.objectId,
    a.objectGeneration,
    String(object.metageneration ?? 1),
    a.eventType,
  ]);
  const marker = `${env().LOCKBOARD_AUDIT_PREFIX}observed/${change}.json`;
  try {
    await objects.create(marker, '', { at: String(first) }, { ifGenerationMatch: 0 });
    return first;
  } catch (err) {
    if (statusOf(err) !== 412) throw err; // 412: an earlier publication fixed the time
  }
  const recorded = Number((await objects.get(marker))?.metadata?.at);
  if (!Number.isFinite(recorded)) throw new ApiError('storage_unavailable', `Unreadable change marker ${marker}`);
  return recorded;
}

const eventKey = (parts: string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16);

/** Whether Lockboard recorded a release (the holder's, or a force-release attempt) of this generation. */
async function lockboardRelease(
  objects: BucketObjects,
  lock: string,
  generation: string,
  at: number,
): Promise<boolean> {
  const { events } = await listAuditEvents({
    storage: storage(),
    bucket: objects.bucket,
    auditPrefix: env().LOCKBOARD_AUDIT_PREFIX,
    from: new Date(at - 10 * 60_000),
    to: new Date(Math.max(at, Date.now()) + 60_000),
    lock,
  });
  // A release that found the object already gone (delete_confirmed=false) did not delete it: someone else did
  return events.some(
    (e) =>
      e.generation === generation &&
      (e.event === 'force-release-requested' ||
        ((e.event === 'released' || e.event === 'force-released') && e.delete_confirmed !== 'false')),
  );
}

/** `<audit prefix><yyyy>/<mm>/<dd>/<hh>/<stamp>-<16 hex of the event's identity>.json`, created only if absent. */
async function writeOnce(
  objects: BucketObjects,
  at: number,
  event: 'observed-created' | 'observed-deleted' | 'deleted-outside',
  metageneration: string,
  fields: Record<string, string>,
): Promise<string> {
  const key = eventKey([objects.bucket, fields.lock!, fields.generation!, metageneration, event]);
  const name = auditObjectName(env().LOCKBOARD_AUDIT_PREFIX, at, key);
  const metadata = { event, ...fields };
  try {
    await objects.create(name, JSON.stringify(metadata), metadata, { ifGenerationMatch: 0 });
  } catch (err) {
    if (statusOf(err) !== 412) throw err; // 412: a redelivery, or another replica, wrote it already
  }
  return name;
}
