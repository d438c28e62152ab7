// Uploads as the GCS JSON API takes them: media, multipart, and resumable sessions in chunks (gcloud's and the
// Node client's), each finished by one insert with the request's preconditions.
import { randomBytes } from 'node:crypto';
import { invalid, notFound } from '../errors';
import { parseJson, parseMultipart, validateObjectName } from './http';
import { objectResource } from './resources';
import { json, methodNotAllowed, objectFields, preconditions, type Reply, type RouteContext } from './route-parts';
import type { ObjectFields, Preconditions } from '../types';

export function upload(method: string, bucket: string, ctx: RouteContext): Reply {
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
