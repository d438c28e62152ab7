// Sessions that end: a signed-out session is refused on every later request (a deny list of session ids, kept
// until the session could have expired anyway), and no session outlives an absolute limit however often it is used.
// next-auth re-issues the JWT on each session read, so a session is named by its own `sid`, stamped at sign-in.
import { randomUUID } from 'node:crypto';
import { processWide } from '../process/process-wide';

/** The longest a session lasts after sign-in, however active (the sliding 8 h limit renews on each use). */
export const SESSION_ABSOLUTE_MS = 12 * 3600_000;

export interface SessionClaims {
  sid?: unknown;
  authAt?: unknown;
  jti?: unknown;
  iat?: unknown;
}

// One deny list per process, shared by every route bundle that loads this module (process-wide.ts).
const denyList = (): Map<string, number> => processWide('revokedSessions', () => new Map<string, number>());

/** The session's id and sign-in time: its own, or for a token issued before they were stamped, its jti and iat. */
export function sessionIdentity(token: SessionClaims, now = Date.now()): { sid: string; authAt: number } {
  const sid =
    typeof token.sid === 'string' ? token.sid : typeof token.jti === 'string' ? token.jti : `legacy-${randomUUID()}`;
  const authAt =
    typeof token.authAt === 'number' ? token.authAt : typeof token.iat === 'number' ? token.iat * 1000 : now;
  return { sid, authAt };
}

/** Signing out ends the session everywhere it was copied: its id is refused until its absolute limit has passed. */
export function revokeSession(token: SessionClaims, now = Date.now()): void {
  const list = denyList();
  for (const [sid, until] of list) if (until <= now) list.delete(sid);
  const { sid, authAt } = sessionIdentity(token, now);
  list.set(sid, Math.max(authAt + SESSION_ABSOLUTE_MS, now + 60_000));
  if (typeof token.jti === 'string') list.set(token.jti, Math.max(authAt + SESSION_ABSOLUTE_MS, now + 60_000));
}

/** Why this session no longer counts (signed out, or past its absolute limit), or null while it does. */
export function sessionEnded(token: SessionClaims, now = Date.now()): string | null {
  const { sid, authAt } = sessionIdentity(token, now);
  const list = denyList();
  if (list.has(sid) || (typeof token.jti === 'string' && list.has(token.jti)))
    return 'This session was signed out: sign in again.';
  if (now - authAt >= SESSION_ABSOLUTE_MS)
    return `Sessions last at most ${SESSION_ABSOLUTE_MS / 3600_000} hours after sign-in: sign in again.`;
  return null;
}

/** When the session ends at the latest (its absolute limit), ms since the epoch. */
export function sessionDeadline(token: SessionClaims, now = Date.now()): number {
  return sessionIdentity(token, now).authAt + SESSION_ABSOLUTE_MS;
}
