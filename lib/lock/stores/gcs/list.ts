// listLocks / getLock: one objects.list call per 1 000 objects with a field projection, classified by the format
// registry. Bodies are read only where a format needs them (≤ 64 KiB), once per object generation (cached).
import type { Storage } from '@google-cloud/storage';
import { LruBytes } from '../../lru-bytes';
import { needsBody } from '../../objects/formats';
import { BucketObjects } from './client';
import { inspectLock, objectViewOf } from '../../objects/inspect';
import { validateLockName } from '../../options';
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
}

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

export async function listLocks(options: ListLocksOptions): Promise<LockList> {
  const objects = new BucketObjects(options.storage, options.bucket);
  const page = await objects.list({
    prefix: options.prefix,
    pageToken: options.pageToken,
    maxResults: Math.min(options.maxResults ?? 1000, 1000),
    fields: LIST_FIELDS,
  });
  const items = page.items ?? [];
  const read = await Promise.all(items.map((item) => bodyFor(objects, item)));
  const now = objects.clock.now();
  const locks: LockInfo[] = [];
  const skipped: SkippedObject[] = [];
  items.forEach((item, i) => {
    const info = inspectLock(item, now, { bucket: options.bucket, longHeldMs: options.longHeldMs, body: read[i] });
    if (info.releasable) locks.push(info);
    else skipped.push(skippedOf(info));
  });
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
  try {
    const body = await objects.download(item.name, String(item.generation));
    bodies.set(key, body);
    return body;
  } catch {
    return undefined; // gone since listing, or unreadable: classified without its body
  }
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
