import { createHash } from 'node:crypto';
import { crc32cBase64 } from './crc32c';
import { GcsError, bucketNotFound, invalid, notFound } from './errors';
import { checkPreconditions } from './preconditions';
import { SortedNames } from './sorted-names';
import type { ListOptions, ListPage, ObjectFields, Preconditions, StoredBucket, StoredObject } from './types';

interface BucketState {
  info: StoredBucket;
  live: Map<string, StoredObject>;
  noncurrent: Map<string, StoredObject[]>;
  /** Names with a live or a noncurrent version. */
  names: SortedNames;
}

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
    const obj: StoredObject = {
      name,
      generation: this.nextGeneration(now),
      metageneration: 1,
      data,
      contentType: fields.contentType ?? 'application/octet-stream',
      timeCreated: now,
      updated: now,
      md5Hash: createHash('md5').update(data).digest('base64'),
      crc32c: crc32cBase64(data),
    };
    applyFields(obj, fields, false);
    if (previous) this.retire(b, previous, now);
    b.live.set(name, obj);
    b.names.add(name);
    this.changed(b, name);
    if (previous) {
      this.emit({
        type: 'OBJECT_DELETE',
        bucket,
        object: previous,
        at: now,
        attributes: { overwrittenByGeneration: String(obj.generation) },
      });
    }
    this.emit({
      type: 'OBJECT_FINALIZE',
      bucket,
      object: obj,
      at: now,
      attributes: previous ? { overwroteGeneration: String(previous.generation) } : {},
    });
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

/** GCS refuses to delete or overwrite an object under a temporary or event-based hold, with 403. */
function refuseIfHeld(bucket: string, obj: StoredObject): void {
  const hold = obj.temporaryHold ? 'Temporary' : obj.eventBasedHold ? 'Event-Based' : null;
  if (!hold) return;
  throw new GcsError(
    403,
    'forbidden',
    `Object '${bucket}/${obj.name}' is under active ${hold} hold and cannot be deleted, overwritten or archived until hold is removed.`,
  );
}

function applyFields(obj: StoredObject, fields: ObjectFields, replace: boolean): void {
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

interface Cursor {
  n: string;
  v: number;
}

function encodeToken(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeToken(token: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Cursor;
    if (typeof cursor.n === 'string' && Number.isInteger(cursor.v)) return cursor;
  } catch {
    // fall through to the error below
  }
  throw invalid(`Invalid pageToken: ${token}`);
}

function listPage(b: BucketState, opts: ListOptions): ListPage {
  const prefix = opts.prefix ?? '';
  const max = opts.maxResults ?? 1000;
  const items: StoredObject[] = [];
  const prefixes: string[] = [];
  let start = prefix;
  if (opts.startOffset !== undefined && opts.startOffset > start) start = opts.startOffset;
  let skipVersions = 0;
  if (opts.pageToken) {
    const cursor = decodeToken(opts.pageToken);
    if (cursor.n > start) start = cursor.n;
    skipVersions = cursor.v;
  }
  for (let i = b.names.lowerBound(start); i < b.names.size;) {
    const name = b.names.at(i)!;
    if (!name.startsWith(prefix) || (opts.endOffset !== undefined && name >= opts.endOffset)) break;
    const rest = name.slice(prefix.length);
    const cut = opts.delimiter ? rest.indexOf(opts.delimiter) : -1;
    if (cut >= 0 && (!opts.includeTrailingDelimiter || cut + opts.delimiter!.length < rest.length)) {
      if (items.length + prefixes.length >= max)
        return { items, prefixes, nextPageToken: encodeToken({ n: name, v: 0 }) };
      const group = prefix + rest.slice(0, cut + opts.delimiter!.length);
      prefixes.push(group);
      i = b.names.lowerBound(group + '\uffff');
      continue;
    }
    const versions = opts.versions ? [...(b.noncurrent.get(name) ?? [])] : [];
    const live = b.live.get(name);
    if (live) versions.push(live);
    versions.sort((x, y) => x.generation - y.generation);
    for (let v = skipVersions; v < versions.length; v++) {
      if (items.length + prefixes.length >= max) return { items, prefixes, nextPageToken: encodeToken({ n: name, v }) };
      items.push(versions[v]!);
    }
    skipVersions = 0;
    i++;
  }
  return { items, prefixes };
}
