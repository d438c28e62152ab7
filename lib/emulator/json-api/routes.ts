// The GCS JSON API routes the project uses: buckets, objects (metadata, media, patch, delete, list) and uploads.
import { GcsError, invalid } from '../errors';
import { boolParam, intParam, parseJson, validateBucketName, validateObjectName } from './http';
import { bucketResource, objectResource } from './resources';
import {
  decode,
  json,
  methodNotAllowed,
  objectFields,
  preconditions,
  type Reply,
  type RouteContext,
} from './route-parts';
import { upload } from './upload-routes';

export type { Reply, RouteContext } from './route-parts';

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
