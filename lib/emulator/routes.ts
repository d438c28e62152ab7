// The GCS JSON API routes the project uses: buckets, objects (metadata, media, patch, delete, list) and uploads.
import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { GcsError, invalid, notFound } from './errors';
import {
  boolParam,
  intParam,
  parseFields,
  parseJson,
  parseMultipart,
  projectFields,
  validateBucketName,
  validateObjectName,
} from './http';
import type { ObjectStore } from './objects';
import type { Notifications } from './notifications';
import { bucketResource, objectResource } from './resources';
import type { ObjectFields, Preconditions } from './types';

export interface Reply {
  status: number;
  json?: unknown;
  body?: Buffer;
  headers?: Record<string, string>;
}

export interface RouteContext {
  store: ObjectStore;
  now: number;
  baseUrl: string;
  query: URLSearchParams;
  body: Buffer;
  req: IncomingMessage;
  /** Throws 429 when the per-object write-rate limit is on and exceeded. */
  checkWriteRate(bucket: string, name: string): void;
  uploads: Map<string, PendingUpload>;
  notifications: Notifications;
}

interface PendingUpload {
  bucket: string;
  name: string;
  fields: ObjectFields;
  pre: Preconditions;
  chunks: Buffer[];
  received: number;
}

const OBJECT = /^\/(?:download\/)?storage\/v1\/b\/([^/]+)\/o\/(.+)$/;

export function route(method: string, path: string, ctx: RouteContext): Reply {
  let m: RegExpExecArray | null;
  if (path === '/storage/v1/b') return bucketsCollection(method, ctx);
  if ((m = /^\/storage\/v1\/b\/([^/]+)$/.exec(path))) return bucketItem(method, decode(m[1]!), ctx);
  if ((m = /^\/storage\/v1\/b\/([^/]+)\/o$/.exec(path)) && method === 'GET') return listObjects(decode(m[1]!), ctx);
  if ((m = /^\/storage\/v1\/b\/([^/]+)\/notificationConfigs(?:\/([^/]+))?$/.exec(path)))
    return notificationConfigs(method, decode(m[1]!), m[2] === undefined ? undefined : decode(m[2]), ctx);
  // /resumable/upload/...: where gcloud (apitools) starts resumable uploads
  if ((m = /^\/(?:resumable\/)?upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(path)))
    return upload(method, decode(m[1]!), ctx);
  if ((m = OBJECT.exec(path))) return objectItem(method, decode(m[1]!), decode(m[2]!), ctx);
  throw new GcsError(404, 'notFound', `Not Found: ${method} ${path} is not part of the emulated API`);
}

function notificationConfigs(method: string, bucket: string, id: string | undefined, ctx: RouteContext): Reply {
  ctx.store.getBucket(bucket);
  const n = ctx.notifications;
  if (id === undefined && method === 'GET') {
    const items = n.list(bucket).map((c) => n.resource(bucket, c));
    return json({ kind: 'storage#notifications', ...(items.length ? { items } : {}) }, ctx);
  }
  if (id === undefined && method === 'POST') {
    return json(
      n.resource(bucket, n.create(bucket, parseJson(ctx.body, 'notification') as Record<string, unknown>)),
      ctx,
    );
  }
  if (id !== undefined && method === 'GET') return json(n.resource(bucket, n.get(bucket, id)), ctx);
  if (id !== undefined && method === 'DELETE') {
    n.delete(bucket, id);
    return { status: 204 };
  }
  throw methodNotAllowed(method);
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalid(`Malformed percent-encoding in path segment ${JSON.stringify(segment)}`);
  }
}

const json = (value: unknown, ctx: RouteContext, status = 200): Reply => {
  const fields = ctx.query.get('fields');
  return { status, json: fields ? projectFields(value, parseFields(fields)) : value };
};

function preconditions(q: URLSearchParams): Preconditions {
  return {
    ifGenerationMatch: intParam(q, 'ifGenerationMatch'),
    ifGenerationNotMatch: intParam(q, 'ifGenerationNotMatch'),
    ifMetagenerationMatch: intParam(q, 'ifMetagenerationMatch'),
    ifMetagenerationNotMatch: intParam(q, 'ifMetagenerationNotMatch'),
  };
}

function bucketsCollection(method: string, ctx: RouteContext): Reply {
  if (method === 'GET') {
    const items = ctx.store.listBuckets().map((b) => bucketResource(b, ctx.baseUrl));
    return json({ kind: 'storage#buckets', ...(items.length ? { items } : {}) }, ctx);
  }
  if (method !== 'POST') throw methodNotAllowed(method);
  const body = parseJson(ctx.body, 'bucket resource');
  const versioning = (body.versioning as { enabled?: unknown } | undefined)?.enabled === true;
  const b = ctx.store.createBucket(validateBucketName(body.name), versioning, ctx.now);
  return json(bucketResource(b, ctx.baseUrl), ctx);
}

function bucketItem(method: string, bucket: string, ctx: RouteContext): Reply {
  if (method === 'GET') return json(bucketResource(ctx.store.getBucket(bucket), ctx.baseUrl), ctx);
  if (method === 'PATCH' || method === 'PUT') {
    const body = parseJson(ctx.body, 'bucket resource');
    const enabled = (body.versioning as { enabled?: unknown } | undefined)?.enabled;
    const b = ctx.store.patchBucket(bucket, typeof enabled === 'boolean' ? enabled : undefined, ctx.now);
    return json(bucketResource(b, ctx.baseUrl), ctx);
  }
  if (method === 'DELETE') {
    ctx.store.deleteBucket(bucket);
    return { status: 204 };
  }
  throw methodNotAllowed(method);
}

function listObjects(bucket: string, ctx: RouteContext): Reply {
  const q = ctx.query;
  const maxResults = intParam(q, 'maxResults');
  if (maxResults !== undefined && maxResults < 1) throw invalid('Invalid value for maxResults: must be at least 1');
  const page = ctx.store.listObjects(bucket, {
    prefix: q.get('prefix') ?? undefined,
    delimiter: q.get('delimiter') || undefined,
    maxResults: Math.min(maxResults ?? 1000, 1000),
    pageToken: q.get('pageToken') || undefined,
    startOffset: q.get('startOffset') || undefined,
    endOffset: q.get('endOffset') || undefined,
    versions: boolParam(q, 'versions'),
    includeTrailingDelimiter: boolParam(q, 'includeTrailingDelimiter'),
  });
  const out: Record<string, unknown> = { kind: 'storage#objects' };
  if (page.nextPageToken) out.nextPageToken = page.nextPageToken;
  if (page.prefixes.length) out.prefixes = page.prefixes;
  if (page.items.length) out.items = page.items.map((o) => objectResource(bucket, o, ctx.baseUrl));
  return json(out, ctx);
}

function objectItem(method: string, bucket: string, name: string, ctx: RouteContext): Reply {
  validateObjectName(name);
  const generation = intParam(ctx.query, 'generation');
  const pre = preconditions(ctx.query);
  if (method === 'GET') {
    const obj = ctx.store.getObject(bucket, name, generation, pre);
    if (ctx.query.get('alt') === 'media') {
      const headers = {
        'content-type': obj.contentType,
        'x-goog-generation': String(obj.generation),
        'x-goog-metageneration': String(obj.metageneration),
        'x-goog-hash': `crc32c=${obj.crc32c},md5=${obj.md5Hash}`,
        'x-goog-stored-content-length': String(obj.data.length),
      };
      return { status: 200, body: obj.data, headers };
    }
    return json(objectResource(bucket, obj, ctx.baseUrl), ctx);
  }
  if (method === 'PATCH' || method === 'PUT') {
    const fields = objectFields(parseJson(ctx.body, 'object resource'));
    ctx.checkWriteRate(bucket, name);
    const obj = ctx.store.updateObject(bucket, name, generation, fields, pre, ctx.now, method === 'PUT');
    return json(objectResource(bucket, obj, ctx.baseUrl), ctx);
  }
  if (method === 'DELETE') {
    ctx.checkWriteRate(bucket, name);
    ctx.store.deleteObject(bucket, name, generation, pre, ctx.now);
    return { status: 204 };
  }
  throw methodNotAllowed(method);
}

function objectFields(body: Record<string, unknown>): ObjectFields {
  const fields: ObjectFields = {};
  const strOrNull = (key: string): string | null | undefined => {
    const v = body[key];
    if (v === undefined || v === null || typeof v === 'string') return v;
    throw invalid(`Invalid value for ${key}: expected a string`);
  };
  const contentType = strOrNull('contentType');
  if (typeof contentType === 'string') fields.contentType = contentType;
  fields.cacheControl = strOrNull('cacheControl');
  fields.contentEncoding = strOrNull('contentEncoding');
  fields.contentDisposition = strOrNull('contentDisposition');
  fields.contentLanguage = strOrNull('contentLanguage');
  for (const key of ['temporaryHold', 'eventBasedHold'] as const) {
    const v = body[key];
    if (v !== undefined && v !== null && typeof v !== 'boolean')
      throw invalid(`Invalid value for ${key}: expected a boolean`);
    if (v !== undefined) fields[key] = v;
  }
  const metadata = body.metadata;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) {
    throw invalid('Invalid value for metadata: expected an object of strings');
  }
  if (metadata !== undefined) {
    for (const [k, v] of Object.entries(metadata ?? {})) {
      if (v !== null && typeof v === 'object') throw invalid(`Invalid value for metadata.${k}: expected a string`);
    }
    fields.metadata = metadata as Record<string, string | null> | null;
  }
  return fields;
}

function upload(method: string, bucket: string, ctx: RouteContext): Reply {
  const q = ctx.query;
  const type = q.get('uploadType');
  if (method === 'PUT' || (method === 'POST' && q.get('upload_id'))) return resumableChunk(q.get('upload_id'), ctx);
  if (method !== 'POST') throw methodNotAllowed(method);
  ctx.store.getBucket(bucket);
  if (type === 'media') {
    const fields = { contentType: ctx.req.headers['content-type'] ?? 'application/octet-stream' };
    return finishUpload(bucket, validateObjectName(q.get('name')), fields, ctx.body, preconditions(q), ctx);
  }
  if (type === 'multipart') {
    const [meta, media] = parseMultipart(ctx.req.headers['content-type'], ctx.body);
    const body = parseJson(meta!.body, 'metadata part');
    const fields = objectFields(body);
    fields.contentType ??= media!.headers['content-type'] ?? 'application/octet-stream';
    const name = validateObjectName(q.get('name') ?? (body.name as string | undefined));
    return finishUpload(bucket, name, fields, media!.body, preconditions(q), ctx);
  }
  if (type === 'resumable') {
    const body = parseJson(ctx.body, 'object resource');
    const name = validateObjectName(q.get('name') ?? (body.name as string | undefined));
    const id = randomBytes(12).toString('hex');
    const fields = objectFields(body);
    fields.contentType ??= String(ctx.req.headers['x-upload-content-type'] ?? 'application/octet-stream');
    ctx.uploads.set(id, { bucket, name, fields, pre: preconditions(q), chunks: [], received: 0 });
    const location = `${ctx.baseUrl}/upload/storage/v1/b/${encodeURIComponent(bucket)}/o?uploadType=resumable&name=${encodeURIComponent(name)}&upload_id=${id}`;
    return { status: 200, headers: { location }, body: Buffer.alloc(0) };
  }
  throw invalid(`Invalid uploadType: ${JSON.stringify(type)} (expected media, multipart or resumable)`);
}

function resumableChunk(id: string | null, ctx: RouteContext): Reply {
  const pending = id ? ctx.uploads.get(id) : undefined;
  if (!pending) throw notFound(`upload session ${id ?? '(missing upload_id)'}`);
  const range = ctx.req.headers['content-range'];
  // "bytes a-b/T|*" (a chunk), "bytes a-*/T|*" (the rest, in one request), "bytes */T|*" (a status query).
  const m = range ? /^bytes (\*|(\d+)-(\d+|\*))\/(\*|\d+)$/.exec(range) : null;
  if (range && !m) throw invalid(`Invalid Content-Range: ${range}`);
  if (m?.[2] !== undefined && Number(m[2]) !== pending.received) {
    throw invalid(`Content-Range starts at ${m[2]} but ${pending.received} bytes were received`);
  }
  if (ctx.body.length > 0) {
    pending.chunks.push(ctx.body);
    pending.received += ctx.body.length;
  }
  const rest = !m || m[3] === '*';
  const total = rest ? pending.received : m[4] === '*' ? undefined : Number(m[4]);
  if (total === undefined || pending.received < total) {
    const headers: Record<string, string> = pending.received > 0 ? { range: `bytes=0-${pending.received - 1}` } : {};
    return { status: 308, headers, body: Buffer.alloc(0) };
  }
  const data = Buffer.concat(pending.chunks);
  const reply = finishUpload(pending.bucket, pending.name, pending.fields, data, pending.pre, ctx);
  ctx.uploads.delete(id!);
  return reply;
}

function finishUpload(
  bucket: string,
  name: string,
  fields: ObjectFields,
  data: Buffer,
  pre: Preconditions,
  ctx: RouteContext,
): Reply {
  ctx.checkWriteRate(bucket, name);
  const obj = ctx.store.insertObject(bucket, name, data, fields, pre, ctx.now);
  return json(objectResource(bucket, obj, ctx.baseUrl), ctx);
}

const methodNotAllowed = (method: string): GcsError =>
  new GcsError(405, 'methodNotAllowed', `Method ${method} is not allowed on this resource`);
