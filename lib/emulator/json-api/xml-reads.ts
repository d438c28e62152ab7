// The GCS XML API reads that Google's Go client makes (Terraform, Vault, certmagic, gmutex read every object body
// this way): GET and HEAD /BUCKET/OBJECT on the JSON endpoint's host, a "/" in the name sent as %2F, ?generation=,
// Range, x-goog-if-generation-match / x-goog-if-metageneration-match, and the response headers the client reads.
import type { IncomingMessage } from 'node:http';
import { GcsError } from '../errors';
import type { ObjectStore } from '../objects/objects';
import type { Reply } from './routes';
import type { StoredObject } from '../types';

/** Paths the JSON API, uploads and the emulator's own controls own; everything else of two segments is XML. */
const JSON_PATHS = /^\/(?:storage|upload|download|resumable|_emulator)\//;
/** The virtual-hosted form: Host BUCKET.storage.googleapis.com, path /OBJECT. */
const VIRTUAL_HOST = /^(.+)\.storage\.googleapis\.com(?::\d+)?$/i;

/** The bucket and (still encoded) object of an XML read, or undefined when the request is not one. */
export function xmlTarget(method: string, path: string, host = ''): { bucket: string; object: string } | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const virtual = VIRTUAL_HOST.exec(host);
  if (virtual && path.length > 1) return { bucket: virtual[1]!, object: path.slice(1) };
  // The path form, with or without the storage.googleapis.com host spelled into it by a proxying endpoint
  const m = /^\/(?:storage\.googleapis\.com\/)?([^/]+)\/(.+)$/.exec(path);
  if (!m || JSON_PATHS.test(path)) return undefined;
  return { bucket: m[1]!, object: m[2]! };
}

export function xmlRead(
  target: { bucket: string; object: string },
  req: IncomingMessage,
  query: URLSearchParams,
  store: ObjectStore,
): Reply {
  try {
    const bucket = decodeXml(target.bucket);
    const name = decodeXml(target.object);
    const obj = store.getObject(bucket, name, xmlInt(query.get('generation'), 'generation'), {
      ifGenerationMatch: xmlInt(header(req, 'x-goog-if-generation-match'), 'x-goog-if-generation-match'),
      ifMetagenerationMatch: xmlInt(header(req, 'x-goog-if-metageneration-match'), 'x-goog-if-metageneration-match'),
    });
    return body(obj, header(req, 'range'));
  } catch (err) {
    if (err instanceof GcsError) return xmlError(err, target);
    throw err;
  }
}

function body(obj: StoredObject, range: string | undefined): Reply {
  const size = obj.data.length;
  const headers: Record<string, string> = {
    'accept-ranges': 'bytes',
    'content-type': obj.contentType,
    etag: `"${Buffer.from(obj.md5Hash, 'base64').toString('hex')}"`,
    'last-modified': new Date(obj.updated).toUTCString(),
    'x-goog-generation': String(obj.generation),
    'x-goog-metageneration': String(obj.metageneration),
    'x-goog-hash': `crc32c=${obj.crc32c},md5=${obj.md5Hash}`,
    'x-goog-stored-content-length': String(size),
    'x-goog-stored-content-encoding': obj.contentEncoding ?? 'identity',
    'x-goog-storage-class': 'STANDARD',
  };
  if (obj.cacheControl) headers['cache-control'] = obj.cacheControl;
  if (obj.contentEncoding) headers['content-encoding'] = obj.contentEncoding;
  if (obj.contentDisposition) headers['content-disposition'] = obj.contentDisposition;
  if (obj.contentLanguage) headers['content-language'] = obj.contentLanguage;
  for (const [k, v] of Object.entries(obj.metadata ?? {})) headers[`x-goog-meta-${k.toLowerCase()}`] = encodeHeader(v);
  const slice = parseRange(range, size);
  if (slice === 'unsatisfiable') {
    const err = xmlBody('InvalidRange', 'The requested range cannot be satisfied.', `bytes */${size}`);
    return {
      status: 416,
      body: err,
      headers: { 'content-type': 'application/xml; charset=UTF-8', 'content-range': `bytes */${size}` },
    };
  }
  if (!slice) return { status: 200, body: obj.data, headers };
  const [start, end] = slice;
  headers['content-range'] = `bytes ${start}-${end}/${size}`;
  return { status: 206, body: obj.data.subarray(start, end + 1), headers };
}

/** "bytes=a-b", "bytes=a-", "bytes=-n"; an invalid or multi-range header reads the whole object, as GCS does. */
function parseRange(range: string | undefined, size: number): [number, number] | 'unsatisfiable' | undefined {
  const m = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const n = Math.min(Number(m[2]), size);
    return n === 0 ? 'unsatisfiable' : [size - n, size - 1];
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return [start, end];
}

const XML_CODES: Record<number, [string, string]> = {
  304: ['NotModified', 'Not Modified'],
  400: ['InvalidArgument', 'Invalid argument.'],
  404: ['NoSuchKey', 'The specified key does not exist.'],
  412: ['PreconditionFailed', 'At least one of the pre-conditions you specified did not hold.'],
  429: ['SlowDown', 'Please reduce your request rate.'],
  500: ['InternalError', 'We encountered an internal error. Please try again.'],
  503: ['ServiceUnavailable', 'Service Unavailable'],
};

/** An error in the XML API's shape: <Error><Code/><Message/><Details/></Error>. */
export function xmlError(err: GcsError, target?: { bucket: string; object: string }): Reply {
  let [code, message] = XML_CODES[err.status] ?? ['InternalError', err.message];
  if (err.status === 404 && /bucket/i.test(err.message))
    [code, message] = ['NoSuchBucket', 'The specified bucket does not exist.'];
  const details = target && err.status === 404 ? `No such object: ${target.bucket}/${target.object}` : err.message;
  return {
    status: err.status,
    body: err.status === 304 ? Buffer.alloc(0) : xmlBody(code, message, details),
    headers: { 'content-type': 'application/xml; charset=UTF-8' },
  };
}

function xmlBody(code: string, message: string, details: string): Buffer {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return Buffer.from(
    `<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>${esc(message)}</Message><Details>${esc(details)}</Details></Error>`,
  );
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function xmlInt(value: string | null | undefined, name: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (!/^\d{1,19}$/.test(value)) throw new GcsError(400, 'invalid', `Invalid ${name}: ${JSON.stringify(value)}`);
  return Number(value);
}

function decodeXml(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new GcsError(400, 'invalid', `Malformed percent-encoding in ${JSON.stringify(segment)}`);
  }
}

/** Header values must be Latin-1 without line breaks; metadata that is not goes out percent-encoded. */
function encodeHeader(v: string): string {
  return /^[\x20-\x7e]*$/.test(v) ? v : encodeURIComponent(v);
}
