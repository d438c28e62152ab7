// The S3 emulator's state: buckets of objects with S3's conditional writes and deletes (facts-s3.md §1.2):
// If-None-Match: * on PUT, If-Match on PUT (404 NoSuchKey when absent) and DELETE, 409 for a conditional write that
// raced another change to the key, ETag = MD5 of the body (identical bodies share an ETag, as on S3).
import { createHash } from 'node:crypto';
import { S3Error } from './errors';

export interface S3Object {
  key: string;
  data: Buffer;
  etag: string; // quoted, as S3 returns it
  lastModified: number;
  contentType: string;
  metadata: Record<string, string>;
  /** Bumped by every write to the key (an object's change counter, not visible through the API). */
  seq: number;
}

export interface S3Conditions {
  ifMatch?: string;
  ifNoneMatch?: string;
}

export interface S3ListPage {
  contents: S3Object[];
  commonPrefixes: string[];
  isTruncated: boolean;
  nextContinuationToken?: string;
}

const unquote = (etag: string): string => etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');

export class S3ObjectStore {
  readonly buckets = new Map<string, { created: number; objects: Map<string, S3Object> }>();
  /** Called after each change (persistence). */
  onChange: () => void = () => {};
  private seq = 0;

  createBucket(name: string, now: number): boolean {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name)) {
      throw new S3Error(400, 'InvalidBucketName', 'The specified bucket is not valid.', { BucketName: name });
    }
    if (this.buckets.has(name)) return false;
    this.buckets.set(name, { created: now, objects: new Map() });
    this.onChange();
    return true;
  }

  bucket(name: string): Map<string, S3Object> {
    const b = this.buckets.get(name);
    if (!b) throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: name });
    return b.objects;
  }

  get(bucket: string, key: string): S3Object {
    const obj = this.bucket(bucket).get(key);
    if (!obj) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
    return obj;
  }

  /** The key's change counter now (0 when absent): a conditional write that started before a change gets 409. */
  version(bucket: string, key: string): number {
    return this.buckets.get(bucket)?.objects.get(key)?.seq ?? 0;
  }

  put(
    bucket: string,
    key: string,
    data: Buffer,
    fields: { contentType: string; metadata: Record<string, string> },
    cond: S3Conditions,
    now: number,
  ): S3Object {
    const objects = this.bucket(bucket);
    const current = objects.get(key);
    if (cond.ifNoneMatch !== undefined) {
      if (cond.ifNoneMatch.trim() !== '*') {
        throw new S3Error(501, 'NotImplemented', 'If-None-Match on a write accepts only "*".', { Key: key });
      }
      if (current) throw preconditionFailed(key, 'If-None-Match');
    }
    if (cond.ifMatch !== undefined) {
      if (!current) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
      if (cond.ifMatch.trim() !== '*' && unquote(cond.ifMatch) !== unquote(current.etag))
        throw preconditionFailed(key, 'If-Match');
    }
    const obj: S3Object = {
      key,
      data,
      etag: `"${createHash('md5').update(data).digest('hex')}"`,
      lastModified: now,
      contentType: fields.contentType,
      metadata: fields.metadata,
      seq: ++this.seq,
    };
    objects.set(key, obj);
    this.onChange();
    return obj;
  }

  delete(bucket: string, key: string, cond: S3Conditions): void {
    const objects = this.bucket(bucket);
    const current = objects.get(key);
    if (cond.ifMatch !== undefined) {
      // A conditional delete of a missing key is 404 NoSuchKey (a probe of AWS: localstack#13894)
      if (!current) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
      if (cond.ifMatch.trim() !== '*' && unquote(cond.ifMatch) !== unquote(current.etag))
        throw preconditionFailed(key, 'If-Match');
    }
    if (current) {
      objects.delete(key);
      this.seq++;
      this.onChange();
    }
  }

  list(
    bucket: string,
    o: { prefix: string; delimiter?: string; maxKeys: number; startAfter?: string; token?: string },
  ): S3ListPage {
    const objects = this.bucket(bucket);
    const after = o.token ? decodeToken(o.token) : (o.startAfter ?? '');
    const keys = [...objects.keys()].filter((k) => k.startsWith(o.prefix) && k > after).sort();
    const contents: S3Object[] = [];
    const prefixes = new Set<string>();
    let last = '';
    for (const key of keys) {
      if (contents.length + prefixes.size >= o.maxKeys) {
        return { contents, commonPrefixes: [...prefixes], isTruncated: true, nextContinuationToken: encodeToken(last) };
      }
      const rest = key.slice(o.prefix.length);
      const cut = o.delimiter ? rest.indexOf(o.delimiter) : -1;
      if (cut >= 0) {
        const common = o.prefix + rest.slice(0, cut + o.delimiter!.length);
        if (!prefixes.has(common)) prefixes.add(common);
        last = common + '\uffff';
        continue;
      }
      contents.push(objects.get(key)!);
      last = key;
    }
    return { contents, commonPrefixes: [...prefixes], isTruncated: false };
  }
}

function preconditionFailed(key: string, condition: string): S3Error {
  return new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', {
    Condition: condition,
    Key: key,
  });
}

const encodeToken = (key: string): string => Buffer.from(key, 'utf8').toString('base64url');

function decodeToken(token: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(token)) {
    throw new S3Error(400, 'InvalidArgument', 'The continuation token provided is incorrect');
  }
  return Buffer.from(token, 'base64url').toString('utf8');
}
