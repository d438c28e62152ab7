// listLocks / getLock: one objects.list call per 1 000 locks with a field projection; no per-object GET except one
// cached GET per Terraform lock body (keyed by generation: bodies never change).
import type { Storage } from '@google-cloud/storage';
import { BucketObjects } from './gcs';
import { inspectLock } from './inspect';
import { validateLockName } from './options';
import { isoTime } from './time';
import type { GcsObjectResource, LockInfo } from './types';

export const LIST_FIELDS = 'items(name,generation,metageneration,timeCreated,updated,metadata),nextPageToken';

export interface ListLocksOptions {
  storage: Storage;
  bucket: string;
  prefix: string;
  pageToken?: string;
  maxResults?: number;
  longHeldMs?: number;
}

export interface LockList {
  locks: LockInfo[];
  nextPageToken?: string;
  /** Server time the health was judged at (ISO). */
  serverTime: string;
}

const terraformBodies = new Map<string, Record<string, unknown>>();
const TERRAFORM_CACHE_LIMIT = 10_000;

export async function listLocks(options: ListLocksOptions): Promise<LockList> {
  const objects = new BucketObjects(options.storage, options.bucket);
  const page = await objects.list({
    prefix: options.prefix,
    pageToken: options.pageToken,
    maxResults: Math.min(options.maxResults ?? 1000, 1000),
    fields: LIST_FIELDS,
  });
  const items = page.items ?? [];
  const bodies = await Promise.all(items.map((item) => terraformBody(objects, item)));
  const now = objects.clock.now();
  const locks = items.map((item, i) =>
    inspectLock(item, now, { bucket: options.bucket, longHeldMs: options.longHeldMs, terraformBody: bodies[i] }),
  );
  return { locks, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}), serverTime: isoTime(now) };
}

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
  const body = await terraformBody(objects, object);
  return inspectLock(object, objects.clock.now(), {
    bucket: options.bucket,
    longHeldMs: options.longHeldMs,
    terraformBody: body,
  });
}

/** Server time as last seen by the lock core for this client (ISO). */
export function serverTimeOf(storage: Storage, bucket: string): string {
  return isoTime(new BucketObjects(storage, bucket).clock.now());
}

async function terraformBody(
  objects: BucketObjects,
  item: GcsObjectResource,
): Promise<Record<string, unknown> | undefined> {
  if (!item.name.endsWith('.tflock')) return undefined;
  const key = `${objects.bucket}/${item.name}#${item.generation}`;
  const cached = terraformBodies.get(key);
  if (cached) return cached;
  try {
    const parsed = JSON.parse((await objects.download(item.name, String(item.generation))).toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    if (terraformBodies.size >= TERRAFORM_CACHE_LIMIT) terraformBodies.clear();
    terraformBodies.set(key, parsed as Record<string, unknown>);
    return parsed as Record<string, unknown>;
  } catch {
    return undefined; // unreadable or gone since listing: shown without Terraform details
  }
}
