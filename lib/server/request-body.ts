// Request bodies read with a cap and validated with a zod schema: a client's mistake is a 400/413/415, never a 5xx.
import type { z } from 'zod';
import { ApiError } from './api-error';

const BODY_LIMIT = 16 * 1024;

/**
 * Reads a request body as text, streaming, and stops with 413 as soon as it passes `limit` bytes: a large or
 * endless (chunked) body never sits in memory, whoever sends it.
 */
export async function readBodyCapped(req: Request, limit: number): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > limit) throw new ApiError('payload_too_large', `The request body exceeds ${limit} bytes.`);
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new ApiError('payload_too_large', `The request body exceeds ${limit} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON body (content type checked, at most `limit` bytes (16 KiB), read with a cap), validated with `schema`. */
export async function readJson<S extends z.ZodType>(req: Request, schema: S, limit = BODY_LIMIT): Promise<z.output<S>> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError('unsupported_media_type', 'Send the request body as JSON (Content-Type: application/json).');
  }
  const text = await readBodyCapped(req, limit);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ApiError('bad_request', 'The request body is not valid JSON.');
  }
  return parseWith(schema, raw);
}

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? `${issue.path.join('.')}: ` : '';
  throw new ApiError('bad_request', `${field}${issue.message}`);
}
