// An object's writable fields as GCS applies them (merge on PATCH, replace on PUT), a new object's computed ones
// (hashes, times), and the holds that refuse a delete or an overwrite.
import { createHash } from 'node:crypto';
import { crc32cBase64 } from './crc32c';
import { GcsError } from '../errors';
import type { ObjectFields, StoredObject } from '../types';

/** A new object's version: generation and times from the store, hashes of its data, then its fields. */
export function newObject(
  name: string,
  data: Buffer,
  fields: ObjectFields,
  generation: number,
  now: number,
): StoredObject {
  const obj: StoredObject = {
    name,
    generation,
    metageneration: 1,
    data,
    contentType: fields.contentType ?? 'application/octet-stream',
    timeCreated: now,
    updated: now,
    md5Hash: createHash('md5').update(data).digest('base64'),
    crc32c: crc32cBase64(data),
  };
  applyFields(obj, fields, false);
  return obj;
}

/** GCS refuses to delete or overwrite an object under a temporary or event-based hold, with 403. */
export function refuseIfHeld(bucket: string, obj: StoredObject): void {
  const hold = obj.temporaryHold ? 'Temporary' : obj.eventBasedHold ? 'Event-Based' : null;
  if (!hold) return;
  throw new GcsError(
    403,
    'forbidden',
    `Object '${bucket}/${obj.name}' is under active ${hold} hold and cannot be deleted, overwritten or archived until hold is removed.`,
  );
}

export function applyFields(obj: StoredObject, fields: ObjectFields, replace: boolean): void {
  if (fields.contentType !== undefined) obj.contentType = fields.contentType;
  for (const key of ['temporaryHold', 'eventBasedHold'] as const) {
    const value = fields[key];
    if (value === true) obj[key] = true;
    else if (value === false || value === null) obj[key] = false;
  }
  for (const key of ['cacheControl', 'contentEncoding', 'contentDisposition', 'contentLanguage'] as const) {
    const value = fields[key];
    if (value === null || (replace && value === undefined)) delete obj[key];
    else if (value !== undefined) obj[key] = value;
  }
  if (fields.metadata === null || (replace && fields.metadata === undefined)) {
    delete obj.metadata;
    return;
  }
  if (fields.metadata === undefined) return;
  const merged: Record<string, string> = replace ? {} : { ...obj.metadata };
  for (const [key, value] of Object.entries(fields.metadata)) {
    if (value === null) delete merged[key];
    else merged[key] = String(value);
  }
  if (Object.keys(merged).length > 0) obj.metadata = merged;
  else delete obj.metadata;
}
