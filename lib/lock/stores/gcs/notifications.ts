// GCS's change feed: Cloud Storage notifications (payload JSON_API_V1) turned into observed audit events, for locks of
// every format and for deletions made outside Lockboard. GCS publishes each change at least once (a second
// publication is a new message with its own messageId and publishTime) and Pub/Sub delivers each message at least
// once, out of order, to any replica: an event's name comes from the change alone (bucket, object, generation,
// metageneration, kind, and the change's own time) and is created with ifGenerationMatch=0, so a redelivery, a
// second publication or a second replica writes nothing new.
//
// Metadata updates (OBJECT_METADATA_UPDATE: every refresh of every lock) are not stored: one write per refresh would
// cost more than the locks themselves, and the live state is read from the bucket anyway. Creates and deletes are
// the churn that matters (who held what, from when to when, and who deleted it).
import { branded } from '../../support/branded';
import { createHash } from 'node:crypto';
import type { Storage } from '@google-cloud/storage';
import { classifyObject } from '../../objects/formats';
import { objectViewOf } from '../../objects/inspect';
import { auditObjectName } from '../../objects/audit-names';
import type { GcsObjectResource } from '../../types';
import { listAuditEvents } from './audit-read';
import { BucketObjects, statusOf } from './client';
import { bodyFor } from './list';

/** A Lockboard lock deleted with no Lockboard release recorded within this long is `deleted-outside`. */
export const RELEASE_GRACE_MS = 15_000;

export interface GcsNotification {
  attributes: {
    eventType: 'OBJECT_FINALIZE' | 'OBJECT_DELETE' | 'OBJECT_METADATA_UPDATE' | 'OBJECT_ARCHIVE';
    bucketId: string;
    objectId: string;
    objectGeneration: string;
    overwroteGeneration?: string;
    overwrittenByGeneration?: string;
  };
  object?: GcsObjectResource;
  publishTime?: string;
}

export interface Observation {
  /** What was written (object names), or why nothing was. */
  written: string[];
  ignored?: string;
}

/** The notification cannot be recorded yet: the push must be redelivered (the route answers 503). */
export class RedeliverLater extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedeliverLater';
  }
}

/** The notification is malformed (the route answers 400, so Pub/Sub does not redeliver it forever). */
export class NotificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotificationError';
  }
}

interface Trail {
  storage: Storage;
  auditPrefix: string;
}

/**
 * Records one notification about an object of this bucket. Storage failures throw (Pub/Sub redelivers); a delete of a
 * Lockboard lock whose release event may still be on its way throws RedeliverLater.
 */
export async function observeNotification(
  n: GcsNotification,
  o: { storage: Storage; auditPrefix: string },
): Promise<Observation> {
  const { attributes: a, object } = n;
  if (a.objectId.startsWith(o.auditPrefix)) return { written: [], ignored: 'an audit event' };
  if (a.eventType !== 'OBJECT_FINALIZE' && a.eventType !== 'OBJECT_DELETE') {
    return { written: [], ignored: `${a.eventType} is not stored (refreshes would cost one write each)` };
  }
  // A delete that is half of an overwrite (a takeover) is described by the create that replaced it
  if (a.eventType === 'OBJECT_DELETE' && a.overwrittenByGeneration) return { written: [], ignored: 'overwritten' };
  if (!object) throw new NotificationError('message.data is missing: use payload format JSON_API_V1.');
  const objects = new BucketObjects(o.storage, a.bucketId);
  const trail = { storage: o.storage, auditPrefix: o.auditPrefix };
  const resource = { ...object, name: a.objectId, generation: a.objectGeneration } as GcsObjectResource;
  // After a delete the body is gone: only a copy this replica read before (cached per generation) can help
  const body = await bodyFor(objects, resource, { cachedOnly: a.eventType === 'OBJECT_DELETE' });
  const kind = classifyObject(objectViewOf(resource, body));
  if (kind.kind !== 'lock') return { written: [], ignored: kind.kind === 'data' ? 'a data object' : kind.reason };
  const identity = kind.reading.identity;
  const format = kind.format.id;
  const when = await changeTime(objects, trail, a, object, n.publishTime);
  const base = { lock: a.objectId, generation: a.objectGeneration, format, ...(identity ? { identity } : {}) };
  const written: string[] = [];
  if (a.eventType === 'OBJECT_FINALIZE') {
    written.push(
      await writeOnce(objects, trail, when, 'observed-created', String(object.metageneration ?? 1), {
        ...base,
        ...(a.overwroteGeneration ? { previous_generation: a.overwroteGeneration, outcome: 'took-over' } : {}),
      }),
    );
    return { written };
  }
  written.push(await writeOnce(objects, trail, when, 'observed-deleted', String(object.metageneration ?? 1), base));
  if (format === 'lockboard') {
    const released = await lockboardRelease(objects, trail, a.objectId, a.objectGeneration, when);
    if (!released) {
      // The holder's own `released` event is written just after its DELETE: wait for it before judging
      if (Date.now() - when < RELEASE_GRACE_MS) {
        throw new RedeliverLater('Waiting for the holder’s release event; redeliver later.');
      }
      written.push(await writeOnce(objects, trail, when, 'deleted-outside', String(object.metageneration ?? 1), base));
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
  trail: Trail,
  a: GcsNotification['attributes'],
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
  const marker = `${trail.auditPrefix}observed/${change}.json`;
  try {
    await objects.create(marker, '', { at: String(first) }, { ifGenerationMatch: 0 });
    return first;
  } catch (err) {
    if (statusOf(err) !== 412) throw err; // 412: an earlier publication fixed the time
  }
  const recorded = Number((await objects.get(marker))?.metadata?.at);
  if (!Number.isFinite(recorded)) throw new RedeliverLater(`Unreadable change marker ${marker}`);
  return recorded;
}

const eventKey = (parts: string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16);

/** Whether Lockboard recorded a release (the holder's, or a force-release attempt) of this generation. */
async function lockboardRelease(
  objects: BucketObjects,
  trail: Trail,
  lock: string,
  generation: string,
  at: number,
): Promise<boolean> {
  const { events } = await listAuditEvents({
    storage: trail.storage,
    bucket: objects.bucket,
    auditPrefix: trail.auditPrefix,
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
  trail: Trail,
  at: number,
  event: 'observed-created' | 'observed-deleted' | 'deleted-outside',
  metageneration: string,
  fields: Record<string, string>,
): Promise<string> {
  const key = eventKey([objects.bucket, fields.lock!, fields.generation!, metageneration, event]);
  const name = auditObjectName(trail.auditPrefix, at, key);
  const metadata = { event, ...fields };
  try {
    await objects.create(name, JSON.stringify(metadata), metadata, { ifGenerationMatch: 0 });
  } catch (err) {
    if (statusOf(err) !== 412) throw err; // 412: a redelivery, or another replica, wrote it already
  }
  return name;
}

// the push route tells them apart from a copy of this module in another Next.js layer (an expected 503 or 400)
branded(RedeliverLater, 'RedeliverLater');
branded(NotificationError, 'NotificationError');
