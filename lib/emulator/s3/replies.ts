// The S3 emulator's replies and request parts: error and XML replies, object reads with their conditions, the
// bucket list, writing a reply, headers, path segments and aws-chunked bodies.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { S3Error } from './errors';
import type { S3Conditions, S3ObjectStore } from './store';

export interface Reply {
  status: number;
  body?: Buffer | string;
  headers?: Record<string, string>;
}

export function listBuckets(store: S3ObjectStore): Reply {
  const items = [...store.buckets.entries()]
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

export function objectReply(obj: ReturnType<S3ObjectStore['get']>, head: boolean, cond: S3Conditions): Reply {
  const unq = (e: string) => e.trim().replace(/^"|"$/g, '');
  if (cond.ifMatch !== undefined && cond.ifMatch.trim() !== '*' && unq(cond.ifMatch) !== unq(obj.etag)) {
    throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', {
      Condition: 'If-Match',
    });
  }
  if (cond.ifNoneMatch !== undefined && (cond.ifNoneMatch.trim() === '*' || unq(cond.ifNoneMatch) === unq(obj.etag))) {
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

export function sendReply(req: IncomingMessage, res: ServerResponse, reply: Reply, nowMs: number): void {
  if (res.destroyed) return;
  res.setHeader('Date', new Date(nowMs).toUTCString());
  res.setHeader('x-amz-request-id', Math.random().toString(16).slice(2, 18).toUpperCase());
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  const body = reply.body === undefined ? Buffer.alloc(0) : Buffer.from(reply.body);
  if (!res.hasHeader('content-length')) res.setHeader('Content-Length', req.method === 'HEAD' ? 0 : body.length);
  res
    .writeHead(reply.status)
    .end(req.method === 'HEAD' || reply.status === 204 || reply.status === 304 ? undefined : body);
}

export function errorReply(err: S3Error): Reply {
  return { status: err.status, body: err.toXml(), headers: { 'content-type': 'application/xml' } };
}

export const xml = (status: number, body: string): Reply => ({
  status,
  body,
  headers: { 'content-type': 'application/xml' },
});

export const conflict = (key: string): S3Error =>
  new S3Error(
    409,
    'ConditionalRequestConflict',
    'A conflicting conditional operation is currently in progress against this resource. Please try again.',
    {
      Key: key,
    },
  );

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new S3Error(400, 'InvalidURI', 'Could not parse the specified URI.');
  }
}

/** aws-chunked (streaming SigV4 or unsigned with a checksum trailer): "<hex size>[;chunk-signature=…]\r\n<data>\r\n"… */
export function decodeBody(req: IncomingMessage, raw: Buffer): Buffer {
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
