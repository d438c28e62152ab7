// One error type for the API, one map from code to status, and the route wrapper: session, role, origin, errors.
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { getToken } from 'next-auth/jwt';
import type { NextRequest } from 'next/server';
import type { z } from 'zod';
import { AuditWriteError, GcsCallError, LockOptionsError } from '@/lib/lock';
import { storeUnavailable } from '@/lib/lock/store-errors';
import { resolveRole } from './auth/auth';
import { env } from './env';
import { allows, type Role } from './auth/roles';
import { sessionDeadline, sessionIdentity } from './auth/session-guard';
import { sessionRefused } from './auth/session-revocations';
import { branded } from '@/lib/lock/support/branded';

const STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  not_a_lock: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
  storage_unavailable: 503,
  audit_unavailable: 503,
} as const;
export type ApiErrorCode = keyof typeof STATUS;

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

export function errorResponse(err: unknown): Response {
  if (err instanceof ApiError) {
    const retry: Record<string, string> = err.code === 'storage_unavailable' ? { 'retry-after': '2' } : {};
    return json({ error: { code: err.code, message: err.message }, ...err.extra }, STATUS[err.code], retry);
  }
  // A client mistake the lock core or Cloud Storage rejected (a bad name, page token or generation): 400, not 5xx.
  if (err instanceof LockOptionsError || (err instanceof GcsCallError && err.status === 400)) {
    return json({ error: { code: 'bad_request', message: err.message } }, 400);
  }
  if (err instanceof AuditWriteError) {
    return json({ error: { code: 'audit_unavailable', message: err.message }, deleted: false }, 503, {
      'retry-after': '5',
    });
  }
  // A store that cannot serve the request now (unreachable, a missing table or grant, throttled): one judgement
  const unavailable = storeUnavailable(err);
  if (unavailable !== null) {
    const message = `${unavailable.replace(/\.?$/, '.')} Retry in a few seconds.`;
    return json({ error: { code: 'storage_unavailable', message } }, 503, { 'retry-after': '2' });
  }
  console.error('[lockboard] unexpected error in an API route:', err);
  return json({ error: { code: 'internal', message: 'Internal error; the details are in the server log.' } }, 500);
}

export interface RouteUser {
  email: string;
  role: Role;
  /** When the session ends (ms since the epoch), for responses that outlive the request (the lock stream). */
  expiresAt?: number;
  /** The session's id, for those responses to end once it is signed out (lib/server/auth/session-revocations.ts). */
  sid?: string;
}

type Handler<P> = (req: NextRequest, ctx: { user: RouteUser; params: P }) => Promise<Response>;

/** Session check (401), role check from the allow-lists (403), same-origin check for mutations, error mapping. */
export function withRole<P = Record<string, never>>(needed: Role, handler: Handler<P>) {
  return async (req: NextRequest, context: { params: Promise<P> }): Promise<Response> => {
    try {
      const token = await getToken({ req, secret: env().NEXTAUTH_SECRET });
      if (!token?.email) throw new ApiError('unauthorized', 'Sign in to use the Lockboard API.');
      const ended = await sessionRefused(token);
      if (ended) throw new ApiError('unauthorized', ended);
      const role = resolveRole(token.email);
      if (!role) throw new ApiError('forbidden', `${token.email} is not on the Lockboard viewer or operator list.`);
      if (!allows(role, needed))
        throw new ApiError('forbidden', `This action needs the ${needed} role; you are a ${role}.`);
      if (req.method !== 'GET' && req.method !== 'HEAD') assertSameOrigin(req);
      const exp = typeof token.exp === 'number' ? token.exp * 1000 : undefined;
      const expiresAt = Math.min(exp ?? Infinity, sessionDeadline(token));
      // next-auth accepts a token up to 15 s past its expiry; a session that has ended is ended
      if (expiresAt <= Date.now()) throw new ApiError('unauthorized', 'Your session has ended: sign in again.');
      const user = { email: token.email, role, expiresAt, sid: sessionIdentity(token).sid };
      return await handler(req, { user, params: await context.params });
    } catch (err) {
      return errorResponse(err);
    }
  };
}

/**
 * Same-origin check for mutations: scheme, host and port, as browsers compare origins. The expected origin is the
 * configured public URL (NEXTAUTH_URL) when set, else this request's scheme and Host header; X-Forwarded-Host is
 * never trusted (any client can send it). Behind TLS termination, set NEXTAUTH_URL to the https:// address.
 */
function assertSameOrigin(req: NextRequest): void {
  const origin = req.headers.get('origin');
  if (origin) {
    let given: string;
    try {
      given = new URL(origin).origin;
    } catch {
      throw new ApiError('forbidden', 'Cross-origin request refused: malformed Origin header.');
    }
    if (given !== expectedOrigin(req)) throw new ApiError('forbidden', 'Cross-origin request refused.');
    return;
  }
  if (req.headers.get('sec-fetch-site') !== 'same-origin') {
    throw new ApiError('forbidden', 'Cross-origin request refused: send the request from the console (Origin header).');
  }
}

function expectedOrigin(req: NextRequest): string | null {
  const configured = env().NEXTAUTH_URL;
  if (configured) return new URL(configured).origin;
  const host = req.headers.get('host');
  if (!host) return null;
  try {
    return new URL(`${req.nextUrl.protocol}//${host}`).origin;
  } catch {
    return null;
  }
}

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

/** Constant-time comparison of a presented secret (bearer or push token) with the configured one. */
export function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

branded(ApiError, 'ApiError');
