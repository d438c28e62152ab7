// HTTP plumbing of the emulator: bodies with limits, multipart/related, GCS `fields` projections, parameters.
import type { IncomingMessage } from 'node:http';
import { GcsError, invalid } from '../errors';

export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit)
      throw new GcsError(413, 'uploadTooLarge', `Request body exceeds the emulator limit of ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function parseJson(body: Buffer, what: string): Record<string, unknown> {
  if (body.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw new GcsError(400, 'parseError', `Parse Error: the ${what} is not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new GcsError(400, 'parseError', `Parse Error: the ${what} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

interface MultipartPart {
  headers: Record<string, string>;
  body: Buffer;
}

/** Parses a multipart/related body (metadata part, then media part) as sent by the JSON API clients. */
export function parseMultipart(contentType: string | undefined, body: Buffer): MultipartPart[] {
  // Quoted with " (RFC 2046) or with ' (Python's email package, as gcloud sends it; Google accepts both)
  const match = /boundary=(?:"([^"]+)"|'([^']+)'|([^;]+))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2] ?? match?.[3]?.trim();
  if (!boundary) throw invalid('Multipart upload needs a Content-Type of multipart/related with a boundary');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let pos = body.indexOf(delimiter);
  // Line breaks are CRLF (RFC 2046) or bare LF (Python's email generator, as gcloud sends): both are accepted
  const lineBreakAt = (i: number) => (body[i] === 0x0d && body[i + 1] === 0x0a ? 2 : body[i] === 0x0a ? 1 : 0);
  while (pos >= 0) {
    let start = pos + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    start += lineBreakAt(start);
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    let end = next;
    if (body[end - 1] === 0x0a) end -= body[end - 2] === 0x0d ? 2 : 1;
    const part = body.subarray(start, end);
    const crlf = part.indexOf('\r\n\r\n');
    const lf = part.indexOf('\n\n');
    const [headerEnd, sepLength] = crlf >= 0 && (lf < 0 || crlf <= lf) ? [crlf, 4] : [lf, 2];
    const headers: Record<string, string> = {};
    const rawHeaders = headerEnd >= 0 ? part.subarray(0, headerEnd).toString('utf8') : '';
    for (const line of rawHeaders.split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, body: headerEnd >= 0 ? part.subarray(headerEnd + sepLength) : part });
    pos = next;
  }
  if (parts.length < 2) throw invalid('Multipart upload must have a metadata part and a media part');
  return parts;
}

type FieldTree = Map<string, FieldTree | true>;

/** Parses a GCS `fields` selector such as `items(name,generation),nextPageToken`. */
export function parseFields(spec: string): FieldTree {
  let i = 0;
  const parseList = (): FieldTree => {
    const tree: FieldTree = new Map();
    while (i < spec.length && spec[i] !== ')') {
      const m = /^[A-Za-z0-9_/*]+/.exec(spec.slice(i));
      if (!m) throw invalid(`Invalid field selection: ${spec}`);
      i += m[0].length;
      const path = m[0].split('/');
      let sub: FieldTree | true = true;
      if (spec[i] === '(') {
        i++;
        sub = parseList();
        if (spec[i] !== ')') throw invalid(`Invalid field selection: ${spec}`);
        i++;
      }
      for (let k = path.length - 1; k > 0; k--) sub = new Map([[path[k]!, sub]]);
      tree.set(path[0]!, mergeFields(tree.get(path[0]!), sub));
      if (spec[i] === ',') i++;
    }
    return tree;
  };
  const tree = parseList();
  if (i !== spec.length) throw invalid(`Invalid field selection: ${spec}`);
  return tree;
}

/** `items/name,items/size` selects both: selections of one key are merged, and a whole-field selection wins. */
function mergeFields(a: FieldTree | true | undefined, b: FieldTree | true): FieldTree | true {
  if (a === undefined) return b;
  if (a === true || b === true) return true;
  const merged: FieldTree = new Map(a);
  for (const [k, v] of b) merged.set(k, mergeFields(merged.get(k), v));
  return merged;
}

export function projectFields(value: unknown, tree: FieldTree | true): unknown {
  if (tree === true || tree.has('*') || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => projectFields(v, tree));
  const out: Record<string, unknown> = {};
  for (const [key, sub] of tree) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = projectFields(v, sub);
  }
  return out;
}

/** An optional integer query parameter (generations, metagenerations, maxResults). */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw invalid(`Invalid value for ${name}: ${JSON.stringify(raw)} is not an integer`);
  }
  return Number(raw);
}

export function boolParam(query: URLSearchParams, name: string): boolean {
  const raw = query.get(name);
  if (raw === null || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw invalid(`Invalid value for ${name}: ${JSON.stringify(raw)} is not true or false`);
}

export function validateObjectName(name: string | undefined | null): string {
  if (name === undefined || name === null || name === '') throw new GcsError(400, 'required', 'Required: object name');
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > 1024) {
    throw invalid(`The maximum object name length is 1024 bytes, but got a name of ${bytes} bytes`);
  }
  if (/[\r\n]/.test(name) || name === '.' || name === '..')
    throw invalid(`Invalid object name: ${JSON.stringify(name)}`);
  return name;
}

export function validateBucketName(name: unknown): string {
  if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/.test(name)) {
    throw invalid(`Invalid bucket name: ${JSON.stringify(name)} (3-63 characters: lowercase letters, digits, - _ .)`);
  }
  return name;
}
