// Object and bucket resources exactly as the GCS JSON API returns them (numbers as strings, RFC 3339 times).
import type { StoredBucket, StoredObject } from '../types';

const iso = (ms: number): string => new Date(ms).toISOString();

export function objectResource(bucket: string, obj: StoredObject, baseUrl: string): Record<string, unknown> {
  const path = `b/${encodeURIComponent(bucket)}/o/${encodeURIComponent(obj.name)}`;
  const resource: Record<string, unknown> = {
    kind: 'storage#object',
    id: `${bucket}/${obj.name}/${obj.generation}`,
    selfLink: `${baseUrl}/storage/v1/${path}`,
    mediaLink: `${baseUrl}/download/storage/v1/${path}?generation=${obj.generation}&alt=media`,
    name: obj.name,
    bucket,
    generation: String(obj.generation),
    metageneration: String(obj.metageneration),
    contentType: obj.contentType,
    storageClass: 'STANDARD',
    size: String(obj.data.length),
    md5Hash: obj.md5Hash,
    crc32c: obj.crc32c,
    etag: Buffer.from(`${obj.generation}/${obj.metageneration}`).toString('base64'),
    timeCreated: iso(obj.timeCreated),
    updated: iso(obj.updated),
    timeStorageClassUpdated: iso(obj.timeCreated),
  };
  for (const key of ['cacheControl', 'contentEncoding', 'contentDisposition', 'contentLanguage'] as const) {
    if (obj[key] !== undefined) resource[key] = obj[key];
  }
  if (obj.metadata) resource.metadata = { ...obj.metadata };
  if (obj.temporaryHold !== undefined) resource.temporaryHold = obj.temporaryHold;
  if (obj.eventBasedHold !== undefined) resource.eventBasedHold = obj.eventBasedHold;
  if (obj.timeDeleted !== undefined) resource.timeDeleted = iso(obj.timeDeleted);
  return resource;
}

export function bucketResource(b: StoredBucket, baseUrl: string): Record<string, unknown> {
  return {
    kind: 'storage#bucket',
    id: b.name,
    selfLink: `${baseUrl}/storage/v1/b/${b.name}`,
    name: b.name,
    projectNumber: '0',
    metageneration: String(b.metageneration),
    location: 'US',
    locationType: 'multi-region',
    storageClass: 'STANDARD',
    etag: Buffer.from(`bucket/${b.metageneration}`).toString('base64'),
    timeCreated: iso(b.timeCreated),
    updated: iso(b.updated),
    versioning: { enabled: b.versioning },
  };
}
