// What the object store tells its observers (notifications) and its listener (persistence) about each change.
import type { StoredBucket, StoredObject } from '../types';

export interface StoreListener {
  bucketChanged(bucket: StoredBucket | null, name: string): void;
  objectChanged(bucket: string, name: string, live: StoredObject | undefined, noncurrent: StoredObject[]): void;
}

/** The in-memory state of every bucket. Times are milliseconds on the emulator's (possibly offset) clock. */
export interface ObjectEvent {
  type: 'OBJECT_FINALIZE' | 'OBJECT_METADATA_UPDATE' | 'OBJECT_DELETE';
  bucket: string;
  object: StoredObject;
  /** Server time of the change (ms). */
  at: number;
  attributes: Record<string, string>;
}

/** An insert's events: the overwritten version's OBJECT_DELETE (if any), then the new version's OBJECT_FINALIZE. */
export function insertEvents(
  bucket: string,
  previous: StoredObject | undefined,
  obj: StoredObject,
  now: number,
): ObjectEvent[] {
  const finalize: ObjectEvent = {
    type: 'OBJECT_FINALIZE',
    bucket,
    object: obj,
    at: now,
    attributes: previous ? { overwroteGeneration: String(previous.generation) } : {},
  };
  if (!previous) return [finalize];
  const attributes = { overwrittenByGeneration: String(obj.generation) };
  return [{ type: 'OBJECT_DELETE', bucket, object: previous, at: now, attributes }, finalize];
}
