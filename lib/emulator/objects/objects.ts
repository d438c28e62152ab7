// The emulator's objects: every bucket's live and noncurrent versions, with GCS's preconditions, holds and events.
import { GcsError, bucketNotFound, notFound } from '../errors';
import { insertEvents, type ObjectEvent, type StoreListener } from './object-events';
import { applyFields, newObject, refuseIfHeld } from './object-fields';
import { listPage, type BucketState } from './object-list';
import { checkPreconditions } from './preconditions';
import { SortedNames } from './sorted-names';
import type { ListOptions, ListPage, ObjectFields, Preconditions, StoredBucket, StoredObject } from '../types';

export type { ObjectEvent, StoreListener } from './object-events';

export class ObjectStore {
  private readonly buckets = new Map<string, BucketState>();
  private lastGeneration = 0;
  listener?: StoreListener;

  /** Generations are microseconds since the epoch, strictly increasing, as on GCS. */
  nextGeneration(now: number): number {
    this.lastGeneration = Math.max(Math.floor(now * 1000), this.lastGeneration + 1);
    return this.lastGeneration;
  }

  createBucket(name: string, versioning: boolean, now: number): StoredBucket {
    if (this.buckets.has(name)) {
      throw new GcsError(
        409,
        'conflict',
        'Your previous request to create the named bucket succeeded and you already own it.',
      );
    }
    const info: StoredBucket = { name, timeCreated: now, updated: now, metageneration: 1, versioning };
    this.buckets.set(name, { info, live: new Map(), noncurrent: new Map(), names: new SortedNames() });
    this.listener?.bucketChanged(info, name);
    return info;
  }

  getBucket(name: string): StoredBucket {
    return this.bucket(name).info;
  }

  listBuckets(): StoredBucket[] {
    return [...this.buckets.values()].map((b) => b.info).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  patchBucket(name: string, versioning: boolean | undefined, now: number): StoredBucket {
    const b = this.bucket(name);
    if (versioning !== undefined) b.info.versioning = versioning;
    b.info.metageneration += 1;
    b.info.updated = now;
    this.listener?.bucketChanged(b.info, name);
    return b.info;
  }

  deleteBucket(name: string): void {
    const b = this.bucket(name);
    if (b.names.size > 0) throw new GcsError(409, 'conflict', 'The bucket you tried to delete is not empty.');
    this.buckets.delete(name);
    this.listener?.bucketChanged(null, name);
  }

  /** Object changes as GCS notifications describe them (the emulator's notification delivery listens here). */
  private readonly observers = new Set<(event: ObjectEvent) => void>();
  onObjectEvent(fn: (event: ObjectEvent) => void): () => void {
    this.observers.add(fn);
    return () => this.observers.delete(fn);
  }
  private emit(event: ObjectEvent): void {
    for (const fn of this.observers) fn(event);
  }

  insertObject(
    bucket: string,
    name: string,
    data: Buffer,
    fields: ObjectFields,
    pre: Preconditions,
    now: number,
  ): StoredObject {
    const b = this.bucket(bucket);
    const previous = b.live.get(name);
    checkPreconditions(previous, pre);
    if (previous) refuseIfHeld(bucket, previous);
    const obj = newObject(name, data, fields, this.nextGeneration(now), now);
    if (previous) this.retire(b, previous, now);
    b.live.set(name, obj);
    b.names.add(name);
    this.changed(b, name);
    for (const event of insertEvents(bucket, previous, obj, now)) this.emit(event);
    return obj;
  }

  getObject(bucket: string, name: string, generation: number | undefined, pre: Preconditions): StoredObject {
    const obj = this.find(this.bucket(bucket), name, generation);
    checkPreconditions(obj, pre, true);
    return obj;
  }

  updateObject(
    bucket: string,
    name: string,
    generation: number | undefined,
    fields: ObjectFields,
    pre: Preconditions,
    now: number,
    replace: boolean,
  ): StoredObject {
    const b = this.bucket(bucket);
    const obj = this.find(b, name, generation);
    checkPreconditions(obj, pre);
    applyFields(obj, fields, replace);
    obj.metageneration += 1;
    obj.updated = now;
    this.changed(b, name);
    this.emit({ type: 'OBJECT_METADATA_UPDATE', bucket, object: obj, at: now, attributes: {} });
    return obj;
  }

  deleteObject(bucket: string, name: string, generation: number | undefined, pre: Preconditions, now: number): void {
    const b = this.bucket(bucket);
    const obj = this.find(b, name, generation);
    checkPreconditions(obj, pre);
    refuseIfHeld(bucket, obj);
    if (b.live.get(name) === obj) {
      b.live.delete(name);
      if (generation === undefined) this.retire(b, obj, now);
    } else {
      const versions = b.noncurrent.get(name) ?? [];
      const rest = versions.filter((v) => v !== obj);
      if (rest.length > 0) b.noncurrent.set(name, rest);
      else b.noncurrent.delete(name);
    }
    if (!b.live.has(name) && !b.noncurrent.has(name)) b.names.remove(name);
    this.changed(b, name);
    this.emit({ type: 'OBJECT_DELETE', bucket, object: obj, at: now, attributes: {} });
  }

  listObjects(bucket: string, opts: ListOptions): ListPage {
    return listPage(this.bucket(bucket), opts);
  }

  /** Restores state read from disk; bypasses preconditions and the listener. */
  restoreBucket(info: StoredBucket): void {
    const existing = this.buckets.get(info.name);
    if (existing) existing.info = info;
    else this.buckets.set(info.name, { info, live: new Map(), noncurrent: new Map(), names: new SortedNames() });
  }

  restoreObject(bucket: string, name: string, live: StoredObject | undefined, noncurrent: StoredObject[]): void {
    const b = this.buckets.get(bucket);
    if (!b) return;
    if (live) b.live.set(name, live);
    else b.live.delete(name);
    if (noncurrent.length > 0) b.noncurrent.set(name, noncurrent);
    else b.noncurrent.delete(name);
    if (live || noncurrent.length > 0) b.names.add(name);
    else b.names.remove(name);
    for (const v of [live, ...noncurrent]) if (v) this.lastGeneration = Math.max(this.lastGeneration, v.generation);
  }

  removeBucket(name: string): void {
    this.buckets.delete(name);
  }

  /** Every bucket with its objects, for snapshots. */
  *entries(): Generator<{ info: StoredBucket; objects: [string, StoredObject | undefined, StoredObject[]][] }> {
    for (const b of this.buckets.values()) {
      const objects: [string, StoredObject | undefined, StoredObject[]][] = [];
      for (let i = 0; i < b.names.size; i++) {
        const name = b.names.at(i)!;
        objects.push([name, b.live.get(name), b.noncurrent.get(name) ?? []]);
      }
      yield { info: b.info, objects };
    }
  }

  private bucket(name: string): BucketState {
    const b = this.buckets.get(name);
    if (!b) throw bucketNotFound(name);
    return b;
  }

  private find(b: BucketState, name: string, generation: number | undefined): StoredObject {
    const live = b.live.get(name);
    if (generation === undefined || live?.generation === generation) {
      if (!live) throw notFound(`${b.info.name}/${name}`);
      return live;
    }
    const old = b.noncurrent.get(name)?.find((v) => v.generation === generation);
    if (!old) throw notFound(`${b.info.name}/${name}#${generation}`);
    return old;
  }

  /** Makes a replaced or deleted live version noncurrent when versioning is on. */
  private retire(b: BucketState, obj: StoredObject, now: number): void {
    if (!b.info.versioning) return;
    obj.timeDeleted = now;
    const versions = b.noncurrent.get(obj.name) ?? [];
    versions.push(obj);
    b.noncurrent.set(obj.name, versions);
  }

  private changed(b: BucketState, name: string): void {
    this.listener?.objectChanged(b.info.name, name, b.live.get(name), b.noncurrent.get(name) ?? []);
  }
}
