// The S3 emulator's HTTP server (path style): CreateBucket, HeadBucket, ListObjectsV2, PutObject (conditional),
// GetObject, HeadObject, DeleteObject (conditional), x-amz-meta-*, with the same fault rules and request log as the
// GCS side. SigV4 signatures are accepted from any credentials, never checked; aws-chunked bodies are decoded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Faults } from '../testing/faults';
import { readBody } from '../json-api/http';
import type { RequestLog } from '../testing/request-log';
import { S3_FAULTS, S3Error } from './errors';
import type { S3Conditions, S3ObjectStore } from './store';
import { controlRoute } from './control';
import { listXml } from './xml';
import {
  conflict,
  decode,
  decodeBody,
  errorReply,
  header,
  listBuckets,
  objectReply,
  sendReply,
  xml,
  type Reply,
} from './replies';

const BODY_LIMIT = 64 * 1024 * 1024;

export interface S3ServerParts {
  store: S3ObjectStore;
  faults: Faults;
  requests: RequestLog;
  clock: () => number;
}

/** The server's parts, with its clock as requests see it (the fault rules may move it). */
interface Parts extends S3ServerParts {
  now(): number;
}

async function handle(parts: Parts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://s3');
  const method = req.method ?? 'GET';
  const path = url.pathname;
  if (path.startsWith('/_emulator/')) return control(parts, method, path, req, res);
  const { log, end } = parts.requests.track(method, path, url);
  try {
    // The key's state when the request arrived: a conditional write that another change overtook gets 409
    const arrived = versionAt(parts, path);
    const decision = parts.faults.decide(method, path, url.search.slice(1));
    if (decision.latencyMs > 0) await new Promise((r) => setTimeout(r, decision.latencyMs));
    if (decision.reset) {
      req.socket.destroy();
      return log(0, 'reset');
    }
    if (decision.errorStatus) {
      const [code, message] = S3_FAULTS[decision.errorStatus]!;
      send(parts, req, res, errorReply(new S3Error(decision.errorStatus, code, message)));
      return log(decision.errorStatus, 'error');
    }
    let reply: Reply;
    try {
      reply = await route(parts, req, method, path, url.searchParams, arrived);
    } catch (err) {
      if (!(err instanceof S3Error)) throw err;
      reply = errorReply(err);
    }
    if (decision.drop) {
      req.socket.destroy();
      return log(0, 'drop');
    }
    send(parts, req, res, reply);
    log(reply.status);
  } finally {
    end();
  }
}

const send = (parts: Parts, req: IncomingMessage, res: ServerResponse, reply: Reply) =>
  sendReply(req, res, reply, parts.now());

function versionAt(parts: Parts, path: string): number {
  const m = /^\/([^/]+)\/(.+)$/.exec(path);
  if (!m) return 0;
  try {
    return parts.store.version(decodeURIComponent(m[1]!), decodeURIComponent(m[2]!));
  } catch {
    return 0;
  }
}

async function route(
  parts: Parts,
  req: IncomingMessage,
  method: string,
  path: string,
  q: URLSearchParams,
  arrived: number,
): Promise<Reply> {
  const m = /^\/([^/]+)(?:\/(.*))?$/.exec(path);
  if (!m) {
    if (method === 'GET') return listBuckets(parts.store);
    throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  }
  const bucket = decode(m[1]!);
  if (m[2] === undefined || m[2] === '') return bucketRoute(parts, req, method, bucket, q);
  return objectRoute(parts, req, method, bucket, decode(m[2]), arrived);
}

async function bucketRoute(
  parts: Parts,
  req: IncomingMessage,
  method: string,
  bucket: string,
  q: URLSearchParams,
): Promise<Reply> {
  if (method === 'PUT') {
    await readBody(req, 1024 * 1024);
    if (!parts.store.createBucket(bucket, parts.now())) {
      throw new S3Error(
        409,
        'BucketAlreadyOwnedByYou',
        'Your previous request to create the named bucket succeeded and you already own it.',
        {
          BucketName: bucket,
        },
      );
    }
    return { status: 200, headers: { location: `/${bucket}` } };
  }
  parts.store.bucket(bucket);
  if (method === 'HEAD') return { status: 200 };
  if (method !== 'GET') throw new S3Error(405, 'MethodNotAllowed', `${method} on a bucket is not emulated.`);
  const maxKeysRaw = q.get('max-keys');
  const maxKeys = maxKeysRaw === null ? 1000 : Number(maxKeysRaw);
  if (!Number.isInteger(maxKeys) || maxKeys < 0)
    throw new S3Error(400, 'InvalidArgument', 'Provided max-keys not an integer or within integer range');
  const query = {
    prefix: q.get('prefix') ?? '',
    delimiter: q.get('delimiter') || undefined,
    maxKeys: Math.min(maxKeys, 1000),
    token: q.get('continuation-token') ?? undefined,
    startAfter: q.get('start-after') ?? undefined,
  };
  return xml(200, listXml(bucket, parts.store.list(bucket, query), query));
}

async function objectRoute(
  parts: Parts,
  req: IncomingMessage,
  method: string,
  bucket: string,
  key: string,
  before: number,
): Promise<Reply> {
  if (key.length > 1024) throw new S3Error(400, 'KeyTooLongError', 'Your key is too long');
  const cond: S3Conditions = { ifMatch: header(req, 'if-match'), ifNoneMatch: header(req, 'if-none-match') };
  if (method === 'GET' || method === 'HEAD') {
    await readBody(req, 1024 * 1024);
    return objectReply(parts.store.get(bucket, key), method === 'HEAD', cond);
  }
  // A conditional write that another change to the key overtook while it was being received: 409, as S3 answers
  const conditional = cond.ifMatch !== undefined || cond.ifNoneMatch !== undefined;
  if (method === 'PUT') {
    const data = decodeBody(req, await readBody(req, BODY_LIMIT));
    if (req.headers['x-amz-copy-source']) throw new S3Error(501, 'NotImplemented', 'CopyObject is not emulated.');
    if (conditional && parts.store.version(bucket, key) !== before) throw conflict(key);
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (k.startsWith('x-amz-meta-') && typeof v === 'string') metadata[k.slice('x-amz-meta-'.length)] = v;
    }
    const contentType = header(req, 'content-type') ?? 'binary/octet-stream';
    const obj = parts.store.put(bucket, key, data, { contentType, metadata }, cond, parts.now());
    return { status: 200, headers: { etag: obj.etag } };
  }
  if (method === 'DELETE') {
    await readBody(req, 1024 * 1024);
    if (conditional && parts.store.version(bucket, key) !== before) throw conflict(key);
    if (cond.ifNoneMatch !== undefined)
      throw new S3Error(501, 'NotImplemented', 'If-None-Match on DeleteObject is not supported.');
    parts.store.delete(bucket, key, cond);
    return { status: 204 };
  }
  throw new S3Error(405, 'MethodNotAllowed', `${method} on an object is not emulated.`);
}

const control = (parts: Parts, method: string, path: string, req: IncomingMessage, res: ServerResponse) =>
  controlRoute(method, path, req, parts, (status, value) =>
    send(parts, req, res, { status, body: JSON.stringify(value), headers: { 'content-type': 'application/json' } }),
  );

export function createS3Server(s3: S3ServerParts): Server {
  const parts: Parts = { ...s3, now: () => s3.clock() + s3.faults.clockOffsetMs };
  return createServer({ maxHeaderSize: 16 * 1024 }, (req, res) => {
    handle(parts, req, res).catch((err: unknown) => {
      console.error('[emulator s3] unexpected error:', err);
      if (!res.headersSent)
        send(parts, req, res, errorReply(new S3Error(500, 'InternalError', 'We encountered an internal error.')));
    });
  });
}
