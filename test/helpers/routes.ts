// Calling App Router handlers directly, as Next.js would, with a next-auth session cookie.
import { encode } from 'next-auth/jwt';
import { NextRequest } from 'next/server';

export const SECRET = 'test-secret-0123456789abcdef';
export const ORIGIN = 'http://console.test';

export async function sessionCookie(email: string, groups?: string[]): Promise<string> {
  const token = await encode({
    token: { email, name: email, sub: email, ...(groups ? { groups } : {}) },
    secret: SECRET,
  });
  return `next-auth.session-token=${token}`;
}

export interface CallOptions {
  as?: string;
  /** The session's SSO groups (with `as`). */
  groups?: string[];
  /** An API token, sent as Authorization: Bearer (no cookie, no Origin). */
  bearer?: string;
  method?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export async function request(path: string, opts: CallOptions = {}): Promise<NextRequest> {
  const headers: Record<string, string> = { host: 'console.test', ...opts.headers };
  if (opts.as) headers.cookie = await sessionCookie(opts.as, opts.groups);
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  const method = opts.method ?? 'GET';
  if (method !== 'GET' && !opts.bearer && !('origin' in headers) && !('sec-fetch-site' in headers))
    headers.origin = ORIGIN;
  if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
  const body = opts.rawBody ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
  return new NextRequest(new URL(path, ORIGIN), { method, headers, body });
}

type Handler<P> = (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>;

export async function call<P>(handler: Handler<P>, path: string, opts: CallOptions = {}, params?: P) {
  const res = await handler(await request(path, opts), { params: Promise.resolve((params ?? {}) as P) });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (CSV, metrics)
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** Every API route module, imported after the test has set the environment (configuration is read once). */
export async function importRoutes() {
  return {
    locks: await import('@/app/api/locks/route'),
    lock: await import('@/app/api/locks/[...name]/route'),
    release: await import('@/app/api/locks/release/route'),
    batch: await import('@/app/api/locks/release-batch/route'),
    audit: await import('@/app/api/audit/route'),
    summary: await import('@/app/api/audit/summary/route'),
    metrics: await import('@/app/api/metrics/route'),
    health: await import('@/app/api/health/route'),
    stream: await import('@/app/api/locks/stream/route'),
    lockStream: await import('@/app/api/lock-stream/route'),
    openapi: await import('@/app/api/openapi.json/route'),
  };
}
export type Routes = Awaited<ReturnType<typeof importRoutes>>;

/**
 * The routes of a console on `sources` (LOCKBOARD_SOURCES) with `operators` granted every lock, and `env` beside:
 * the bucket variables of the single-bucket form cleared, as every multi-source test sets them.
 */
export async function routesFor(sources: string, operators: string, env: Record<string, string> = {}) {
  Object.assign(process.env, { LOCKBOARD_SOURCES: sources, LOCKBOARD_OPERATORS: operators, NEXTAUTH_SECRET: SECRET });
  Object.assign(process.env, env);
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  return importRoutes();
}
