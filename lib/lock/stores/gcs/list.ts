// listLocks / getLock: one objects.list call per 1 000 objects with a field projection, classified by the format
// registry. Bodies are read only where a format needs them (≤ 64 KiB), once per object generation (cached).
import type { Storage } from '@google-cloud/storage';
import { LruBytes } from '../../support/lru-bytes';
import { needsBody } from '../../objects/formats';
import { BucketObjects } from './client';
import { inspectLock, objectViewOf, pendingLock } from '../../objects/inspect';
import { ReadLimiter, readLater } from '../../support/later-reads';
import { validateLockName } from '../../holding/options';
import { isoTime } from '../../time';
import type { GcsObjectResource, LockInfo } from '../../types';

export const LIST_FIELDS =
  'items(name,generation,metageneration,timeCreated,updated,size,temporaryHold,metadata),nextPageToken';

export interface ListLocksOptions {
  storage: Storage;
  bucket: string;
  prefix: string;
  pageToken?: string;
  maxResults?: number;
  longHeldMs?: number;
  /** Only names from `startOffset` (inclusive) and before `endOffset` (exclusive), as objects.list takes them. */
  startOffset?: string;
  endOffset?: string;
  /**
   * Metadata first: objects whose body is not cached are listed as `pending` now, and read in the background (at
   * most READ_CONCURRENCY at once in this process); each batch read is handed here.
   */
  later?: (read: LockInfo[]) => void;
}

/** Bodies read at once by metadata-first listings, across the process. */
const READ_CONCURRENCY = 32;
const reads = new ReadLimiter(READ_CONCURRENCY);

/** An object under a lock prefix that is not a lock (data or unrecognised), for a read-only view. */
export interface SkippedObject {
  name: string;
  class: 'data' | 'other';
  reason: string;
  size: number;
  updatedAt: string;
  metadata: Record<string, string>;
}

export interface LockList {
  locks: LockInfo[];
  /** Objects on this page that are not locks: never listed as locks, never releasable. */
  skipped: SkippedObject[];
  nextPageToken?: string;
  /** Server time the health was judged at (ISO). */
  serverTime: string;
}

/** Lock bodies by bucket/name#generation (a generation's body never changes): 64 MiB, least recently used out. */
const bodies = new LruBytes(64 * 1024 * 1024);
const inflight = new Map<string, Promise<Buffer | undefined>>();

/** Forgets every cached body (benchmarks that compare cold listings). */
export function forgetBodies(): void {
  bodies.clear();
}

export async function listLocks(options: ListLocksOptions): Promise<LockList> {
  const objects = new BucketObjects(options.storage, options.bucket);
  const page = await objects.list({
    prefix: options.prefix,
    pageToken: options.pageToken,
    maxResults: Math.min(options.maxResults ?? 1000, 1000),
    fields: LIST_FIELDS,
    startOffset: options.startOffset,
    endOffset: options.endOffset,
  });
  const items = page.items ?? [];
  const { later, bucket, longHeldMs } = options;
  const deferred = new Set(later ? items.filter((item) => !hasBody(objects, item)) : []);
  const now = objects.clock.now();
  const locks: LockInfo[] = [];
  const skipped: SkippedObject[] = [];
  const read = await Promise.all(items.map((item) => (deferred.has(item) ? undefined : bodyFor(objects, item))));
  items.forEach((item, i) => {
    if (later && deferred.has(item)) return void locks.push(pendingLock(item, now, bucket));
    const info = inspectLock(item, now, { bucket, longHeldMs, body: read[i] });
    if (info.releasable) locks.push(info);
    else skipped.push(skippedOf(info));
  });
  if (later && deferred.size) {
    const readOne = async (item: GcsObjectResource) =>
      inspectLock(item, objects.clock.now(), { bucket, longHeldMs, body: await bodyFor(objects, item) });
    // a body that cannot be read now stays pending: the next listing reads it again
    readLater([...deferred], reads, readOne, later).catch(() => undefined);
  }
  return {
    locks,
    skipped,
    ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    serverTime: isoTime(now),
  };
}

/** One object under its name, classified (data and other objects included, with `releasable: false`). */
export async function getLock(options: {
  storage: Storage;
  bucket: string;
  name: string;
  longHeldMs?: number;
}): Promise<LockInfo | null> {
  validateLockName(options.name);
  const objects = new BucketObjects(options.storage, options.bucket);
  const object = await objects.get(options.name);
  if (!object) return null;
  const body = await bodyFor(objects, object);
  return inspectLock(object, objects.clock.now(), { bucket: options.bucket, longHeldMs: options.longHeldMs, body });
}

/** Server time as last seen by the lock core for this client (ISO). */
export function serverTimeOf(storage: Storage, bucket: string): string {
  return isoTime(new BucketObjects(storage, bucket).clock.now());
}

/** Whether the object's body is at hand: not needed by any format, or cached. */
function hasBody(objects: BucketObjects, item: GcsObjectResource): boolean {
  return (
    !needsBody(objectViewOf(item)) || bodies.get(`${objects.bucket}/${item.name}#${item.generation}`) !== undefined
  );
}

/**
 * Reads a body only when a format needs it; cached by bucket/name#generation (bodies never change). `cachedOnly`:
 * never download (the object is known to be deleted).
 */
export async function bodyFor(
  objects: BucketObjects,
  item: GcsObjectResource,
  opts: { cachedOnly?: boolean } = {},
): Promise<Buffer | undefined> {
  if (!needsBody(objectViewOf(item))) return undefined;
  const key = `${objects.bucket}/${item.name}#${item.generation}`;
  const cached = bodies.get(key);
  if (cached || opts.cachedOnly) return cached;
  // one download per generation however many listings want it at once
  let reading = inflight.get(key);
  if (!reading) {
    reading = objects.download(item.name, String(item.generation)).then(
      (body) => (bodies.set(key, body), body),
      () => undefined, // gone since listing, or unreadable: classified without its body
    );
    inflight.set(key, reading);
    void reading.finally(() => inflight.delete(key));
  }
  return reading;
}

function skippedOf(info: LockInfo): SkippedObject {
  return {
    name: info.name,
    class: info.format === 'data' ? 'data' : 'other',
    reason: info.note ?? '',
    size: info.size,
    updatedAt: info.updatedAt,
    metadata: info.metadata,
  };
}
