// The S3 emulator's HTTP server (path style): CreateBucket, HeadBucket, ListObjectsV2, PutObject (conditional),
// GetObject, HeadObject, DeleteObject (conditional), x-amz-meta-*, with the same fault rules and request log as the
// GCS side. SigV4 signatures are accepted from any credentials, never checked; aws-chunked bodies are decoded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Faults } from '../faults';
import { readBody } from '../http';
import type { RequestLog } from '../request-log';
import { S3_FAULTS, S3Error } from './errors';
import type { S3Conditions, S3ObjectStore } from './store';
import { listXml } from './xml';

const BODY_LIMIT = 64 * 1024 * 1024;

interface Reply {
  status: number;
  body?: Buffer | string;
  headers?: Record<string, string>;
}

export interface S3ServerParts {
  store: S3ObjectStore;
  faults: Faults;
  requests: RequestLog;
  clock: () => number;
}

export function createS3Server(parts: S3ServerParts): Server {
  const now = (): number => parts.clock() + parts.faults.clockOffsetMs;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const startedAt = Date.now();
    const url = new URL(req.url ?? '/', 'http://s3');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    if (path.startsWith('/_emulator/')) return control(method, path, req, res);
    const end = parts.requests.begin(method, path);
    const log = (status: number, fault?: string): void =>
      parts.requests.add({
        method,
        path,
        query: Object.fromEntries(url.searchParams),
        status,
        fault,
        startedAt,
        durationMs: performance.now() - started,
      });
    try {
      // The key's state when the request arrived: a conditional write that another change overtook gets 409
      const arrived = versionAt(path);
      const decision = parts.faults.decide(method, path, url.search.slice(1));
      if (decision.latencyMs > 0) await new Promise((r) => setTimeout(r, decision.latencyMs));
      if (decision.reset) {
        req.socket.destroy();
        return log(0, 'reset');
      }
      if (decision.errorStatus) {
        const [code, message] = S3_FAULTS[decision.errorStatus]!;
        send(req, res, errorReply(new S3Error(decision.errorStatus, code, message)));
        return log(decision.errorStatus, 'error');
      }
      let reply: Reply;
      try {
        reply = await route(req, method, path, url.searchParams, arrived);
      } catch (err) {
        if (!(err instanceof S3Error)) throw err;
        reply = errorReply(err);
      }
      if (decision.drop) {
        req.socket.destroy();
        return log(0, 'drop');
      }
      send(req, res, reply);
      log(reply.status);
    } finally {
      end();
    }
  }

  function versionAt(path: string): number {
    const m = /^\/([^/]+)\/(.+)$/.exec(path);
    if (!m) return 0;
    try {
      return parts.store.version(decodeURIComponent(m[1]!), decodeURIComponent(m[2]!));
    } catch {
      return 0;
    }
  }

  async function route(
    req: IncomingMessage,
    method: string,
    path: string,
    q: URLSearchParams,
    arrived: number,
  ): Promise<Reply> {
    const m = /^\/([^/]+)(?:\/(.*))?$/.exec(path);
    if (!m) {
      if (method === 'GET') return listBuckets();
      throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    }
    const bucket = decode(m[1]!);
    if (m[2] === undefined || m[2] === '') return bucketRoute(req, method, bucket, q);
    return objectRoute(req, method, bucket, decode(m[2]), arrived);
  }

  function listBuckets(): Reply {
    const items = [...parts.store.buckets.entries()]
      .map(
        ([name, b]) =>
          `<Bucket><Name>${name}</Name><CreationDate>${new Date(b.created).toISOString()}</CreationDate></Bucket>`,
      )
      .join('');
    return xml(
      200,
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListAllMyBucketsResult><Buckets>${items}</Buckets></ListAllMyBucketsResult>`,
    );
  }

  async function bucketRoute(req: IncomingMessage, method: string, bucket: string, q: URLSearchParams): Promise<Reply> {
    if (method === 'PUT') {
      await readBody(req, 1024 * 1024);
      if (!parts.store.createBucket(bucket, now())) {
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
      const obj = parts.store.put(bucket, key, data, { contentType, metadata }, cond, now());
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

  function objectReply(obj: ReturnType<S3ObjectStore['get']>, head: boolean, cond: S3Conditions): Reply {
    const unq = (e: string) => e.trim().replace(/^"|"$/g, '');
    if (cond.ifMatch !== undefined && cond.ifMatch.trim() !== '*' && unq(cond.ifMatch) !== unq(obj.etag)) {
      throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', {
        Condition: 'If-Match',
      });
    }
    if (
      cond.ifNoneMatch !== undefined &&
      (cond.ifNoneMatch.trim() === '*' || unq(cond.ifNoneMatch) === unq(obj.etag))
    ) {
      return { status: 304, headers: { etag: obj.etag } };
    }
    const headers: Record<string, string> = {
      etag: obj.etag,
      'last-modified': new Date(obj.lastModified).toUTCString(),
      'content-type': obj.contentType,
      'accept-ranges': 'bytes',
    };
    for (const [k, v] of Object.entries(obj.metadata)) headers[`x-amz-meta-${k}`] = v;
    return {
      status: 200,
      body: head ? undefined : obj.data,
      headers: { ...headers, 'content-length': String(obj.data.length) },
    };
  }

  function send(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
    if (res.destroyed) return;
    res.setHeader('Date', new Date(now()).toUTCString());
    res.setHeader('x-amz-request-id', Math.random().toString(16).slice(2, 18).toUpperCase());
    for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
    const body = reply.body === undefined ? Buffer.alloc(0) : Buffer.from(reply.body);
    if (!res.hasHeader('content-length')) res.setHeader('Content-Length', req.method === 'HEAD' ? 0 : body.length);
    res
      .writeHead(reply.status)
      .end(req.method === 'HEAD' || reply.status === 204 || reply.status === 304 ? undefined : body);
  }

  async function control(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const json = (status: number, value: unknown) =>
      send(req, res, { status, body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });
    try {
      if (path === '/_emulator/faults') {
        const body = await readBody(req, 1024 * 1024);
        if (method === 'POST') {
          let parsed: unknown;
          try {
            parsed = JSON.parse(body.toString('utf8'));
          } catch {
            return json(400, { error: 'The fault configuration is not JSON.' });
          }
          parts.faults.set(parsed as Parameters<Faults['set']>[0]);
        } else if (method === 'DELETE') parts.faults.clear();
        return json(200, parts.faults.toJSON());
      }
      if (path === '/_emulator/requests') {
        if (method === 'DELETE') parts.requests.clear();
        return json(200, { requests: parts.requests.entries });
      }
      if (path === '/_emulator/health') return json(200, { ok: true });
      return json(404, { error: `Unknown emulator control endpoint ${path}` });
    } catch (err) {
      return json(400, { error: (err as Error).message });
    }
  }

  return createServer({ maxHeaderSize: 16 * 1024 }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error('[emulator s3] unexpected error:', err);
      if (!res.headersSent)
        send(req, res, errorReply(new S3Error(500, 'InternalError', 'We encountered an internal error.')));
    });
  });
}

function errorReply(err: S3Error): Reply {
  return { status: err.status, body: err.toXml(), headers: { 'content-type': 'application/xml' } };
}

const xml = (status: number, body: string): Reply => ({ status, body, headers: { 'content-type': 'application/xml' } });

const conflict = (key: string): S3Error =>
  new S3Error(
    409,
    'ConditionalRequestConflict',
    'A conflicting conditional operation is currently in progress against this resource. Please try again.',
    {
      Key: key,
    },
  );

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new S3Error(400, 'InvalidURI', 'Could not parse the specified URI.');
  }
}

/** aws-chunked (streaming SigV4 or unsigned with a checksum trailer): "<hex size>[;chunk-signature=…]\r\n<data>\r\n"… */
function decodeBody(req: IncomingMessage, raw: Buffer): Buffer {
  const sha = header(req, 'x-amz-content-sha256') ?? '';
  const encoding = header(req, 'content-encoding') ?? '';
  if (!encoding.includes('aws-chunked') && !sha.startsWith('STREAMING-')) return raw;
  const chunks: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) throw new S3Error(400, 'IncompleteBody', 'The aws-chunked body ended early.');
    const size = parseInt(raw.subarray(at, eol).toString('latin1').split(';')[0]!, 16);
    if (!Number.isFinite(size)) throw new S3Error(400, 'InvalidRequest', 'Malformed aws-chunked body.');
    if (size === 0) break;
    chunks.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(chunks);
}
