// The route wrapper: session or API token, role, origin and errors in one place (dub's withSession is the model).
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { getToken } from 'next-auth/jwt';
import type { NextRequest } from 'next/server';
import { accessKey, accessOf, tokenAccess, type Access } from './auth/access';
import { env } from './env';
import { allows, type Role } from './auth/roles';
import { sessionDeadline, sessionIdentity } from './auth/session-guard';
import { sessionRefused } from './auth/session-revocations';
import { ApiError, errorResponse } from './api-error';
import { boardOf, type Board } from './board';

export interface RouteUser {
  /** The actor: the signed-in e-mail address, or the API token's name. */
  email: string;
  /** The highest role the caller's grants give; each lock is judged by `access` (lib/server/auth/access.ts). */
  role: Role;
  access: Access;
  /** Whether the caller still has the access this request was judged with (a stream re-checks it on each tick). */
  unchanged: () => boolean;
  /** When the session ends (ms since the epoch), for responses that outlive the request (the lock stream). */
  expiresAt?: number;
  /** The session's id, for those responses to end once it is signed out (lib/server/auth/session-revocations.ts). */
  sid?: string;
}

/** What a handler is given: the caller, the route's parameters, and `board`, the console within the caller's grants. */
interface RouteContext<P> {
  user: RouteUser;
  params: P;
  board: Board;
}

type Handler<P> = (req: NextRequest, ctx: RouteContext<P>) => Promise<Response>;

/**
 * Bearer token or session check (401), role check from the grants (403), same-origin check for a session's mutations
 * (a bearer request carries no cookie: nothing to forge), error mapping. The handler reads and releases locks only
 * through `board`, built from the caller's access: no route can leave the scope out.
 */
export function withRole<P = Record<string, never>>(needed: Role, handler: Handler<P>) {
  return async (req: NextRequest, context: { params: Promise<P> }): Promise<Response> => {
    try {
      const user = (await bearerUser(req)) ?? (await sessionUser(req));
      if (!user.access.role)
        throw new ApiError('forbidden', `${user.email} has no grant in Lockboard: ask for one in the access file.`);
      if (!allows(user.role, needed))
        throw new ApiError('forbidden', `This action needs the ${needed} role; you are a ${user.role}.`);
      if (!user.access.token && req.method !== 'GET' && req.method !== 'HEAD') assertSameOrigin(req);
      return await handler(req, { user, params: await context.params, board: boardOf(user.access) });
    } catch (err) {
      return errorResponse(err);
    }
  };
}

/** Parameters a token must never travel in (URLs end up in logs and browser history). */
const TOKEN_PARAMS = ['access_token', 'token', 'bearer', 'api_key'];

/** The API token's user, null without an Authorization header; 400 for a token in the URL, 401 for an unknown one. */
async function bearerUser(req: NextRequest): Promise<RouteUser | null> {
  if (TOKEN_PARAMS.some((p) => req.nextUrl.searchParams.has(p)))
    throw new ApiError(
      'bad_request',
      'Tokens are never taken from the URL: send the header Authorization: Bearer <token>.',
    );
  const header = req.headers.get('authorization');
  if (header === null) return null;
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (!given) throw new ApiError('unauthorized', 'Send the API token as Authorization: Bearer <token>.');
  const access = tokenAccess(given);
  if (!access) throw new ApiError('unauthorized', 'This API token is unknown, expired or no longer granted.');
  const key = accessKey(access);
  return {
    email: access.actor,
    role: access.role ?? 'viewer',
    access,
    unchanged: () => accessKey(tokenAccess(given)) === key,
  };
}

/** The signed-in user, from the session cookie: 401 without one or once it has ended. */
async function sessionUser(req: NextRequest): Promise<RouteUser> {
  const token = await getToken({ req, secret: env().NEXTAUTH_SECRET });
  if (!token?.email) throw new ApiError('unauthorized', 'Sign in to use the Lockboard API.');
  const ended = await sessionRefused(token);
  if (ended) throw new ApiError('unauthorized', ended);
  const exp = typeof token.exp === 'number' ? token.exp * 1000 : undefined;
  const expiresAt = Math.min(exp ?? Infinity, sessionDeadline(token));
  // next-auth accepts a token up to 15 s past its expiry; a session that has ended is ended
  if (expiresAt <= Date.now()) throw new ApiError('unauthorized', 'Your session has ended: sign in again.');
  const email = token.email;
  const groups = token.groups ?? [];
  const access = accessOf(email, groups);
  const key = accessKey(access);
  return {
    email,
    role: access.role ?? 'viewer',
    access,
    expiresAt,
    sid: sessionIdentity(token).sid,
    unchanged: () => accessKey(accessOf(email, groups)) === key,
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
