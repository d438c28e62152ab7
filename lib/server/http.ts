// The route wrapper: session, role, origin and errors in one place (dub's withSession is the model).
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { getToken } from 'next-auth/jwt';
import type { NextRequest } from 'next/server';
import { resolveRole } from './auth/auth';
import { env } from './env';
import { allows, type Role } from './auth/roles';
import { sessionDeadline, sessionIdentity } from './auth/session-guard';
import { sessionRefused } from './auth/session-revocations';
import { ApiError, errorResponse } from './api-error';

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

/** Constant-time comparison of a presented secret (bearer or push token) with the configured one. */
export function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
