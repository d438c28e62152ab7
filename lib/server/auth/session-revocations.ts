// Sign-out shared by every replica (#39): the deny list of one process is not enough behind a load balancer, so a
// sign-out is also written to what every replica already shares, the trail of the deployment's primary source (the
// first configured one): a signed `signed-out` record naming a hash of the session id. Each replica keeps the
// revoked ids it has read (bounded: each for the session's absolute limit only) and reads the trail again, only the
// minutes since its last read, when its copy is older than REFRESH_MS: a session signed out on one replica is
// refused by every other within that time. Records a holder could forge are ignored where the deployment signs.
import 'server-only';
import { processWide } from '../process/process-wide';
import { createHash } from 'node:crypto';
import { auditKey, trustAuditRecords } from '@/lib/lock/audit/trust';
import { revokeSession, SESSION_ABSOLUTE_MS, sessionEnded, sessionIdentity, type SessionClaims } from './session-guard';
import { sources } from '../sources';
import { storeFor } from '../stores';

/** The pseudo-lock the session records are filed under; the audit routes leave it out (it is no lock). */
export const SESSIONS_LOCK = '.lockboard/sessions';
/** A replica's copy of the revoked sessions is read again when older than this. */
const REFRESH_MS = 2_000;
/** The longest a request waits for that read. */
const WAIT_MS = 1_000;
/** Each later read goes back this far before the last one: records are keyed by their writer's clock. */
const OVERLAP_MS = 5 * 60_000;
const EVENT = 'signed-out';

interface Revocations {
  until: Map<string, number>;
  readAt?: number;
  fetchedAt: number;
  pending?: Promise<void>;
}
const state = (): Revocations =>
  processWide<Revocations>('sharedRevocations', () => ({ until: new Map(), fetchedAt: -Infinity }));

/** What the trail names: a hash, so the trail never holds a session id. */
const sessionHash = (sid: string): string => createHash('sha256').update(sid).digest('base64url');

/** Writes the sign-out to the primary source's trail (signed with the deployment's key, as every console record). */
async function publishRevocation(sid: string, email: string | undefined): Promise<void> {
  const primary = sources()[0];
  if (!primary) return;
  const store = await storeFor(primary);
  await store.record({ event: EVENT, lock: SESSIONS_LOCK, identity: sessionHash(sid), operator: email ?? '' });
}

/** True when another replica (or this one) recorded the session's sign-out; reads the trail at most every 2 s. */
async function revokedElsewhere(sid: string, absoluteMs: number, now = Date.now()): Promise<boolean> {
  const s = state();
  if (now - s.fetchedAt >= REFRESH_MS) {
    s.pending ??= refresh(s, absoluteMs, now).finally(() => (s.pending = undefined));
    // a slow or stopped primary store delays a request by WAIT_MS at most: the copy read last decides meanwhile
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([s.pending, new Promise((done) => (timer = setTimeout(done, WAIT_MS)))]);
    clearTimeout(timer);
  }
  const until = s.until.get(sessionHash(sid));
  return until !== undefined && until > now;
}

async function refresh(s: Revocations, absoluteMs: number, now: number): Promise<void> {
  const primary = sources()[0];
  if (!primary) return;
  const from = s.readAt === undefined ? now - absoluteMs : s.readAt - OVERLAP_MS;
  try {
    const store = await storeFor(primary);
    const read = await store.readAudit(new Date(from), new Date(now + OVERLAP_MS), SESSIONS_LOCK);
    const signed = auditKey() !== undefined;
    for (const r of trustAuditRecords(read, auditKey(), [EVENT])) {
      if ((r.event as string) !== EVENT || r.lock !== SESSIONS_LOCK || !r.identity || (signed && !r.verified)) continue;
      // a record dated ahead (a writer's clock, where the store keeps none) counts from now, never longer
      const until = Math.min(Date.parse(r.at), now) + absoluteMs;
      s.until.set(r.identity, Math.max(s.until.get(r.identity) ?? 0, until));
    }
    for (const [id, until] of s.until) if (until <= now) s.until.delete(id);
    s.readAt = now;
  } catch (err) {
    // the primary store is down: this replica's own deny list still holds; the shared one is read again next time
    console.warn(`[lockboard] cannot read shared sign-outs from ${primary.id}: ${(err as Error)?.message ?? err}`);
  } finally {
    s.fetchedAt = Date.now();
  }
}

/** Signing out: refused at once by this replica, and by every other once it has read the trail (≤ REFRESH_MS). */
export async function signOutEverywhere(token: SessionClaims & { email?: unknown }): Promise<void> {
  revokeSession(token);
  const email = typeof token.email === 'string' ? token.email : undefined;
  await publishRevocation(sessionIdentity(token).sid, email).catch((err: Error) =>
    console.warn(`[lockboard] sign-out not shared with the other replicas: ${err?.message ?? err}`),
  );
}

/** Why this session no longer counts on this replica (signed out anywhere, or too old), or null while it does. */
export async function sessionRefused(token: SessionClaims, now = Date.now()): Promise<string | null> {
  const ended = sessionEnded(token, now);
  if (ended) return ended;
  return (await revokedElsewhere(sessionIdentity(token, now).sid, SESSION_ABSOLUTE_MS, now))
    ? 'This session was signed out: sign in again.'
    : null;
}

/**
 * For responses that outlive their request (the lock streams, checked on each tick): whether the session is signed
 * out as far as this replica knows now; a read of the shared sign-outs is asked for in the background.
 */
export function signedOutNow(sid: string | undefined, now = Date.now()): boolean {
  if (!sid) return false;
  void revokedElsewhere(sid, SESSION_ABSOLUTE_MS, now).catch(() => undefined);
  if (sessionEnded({ sid, authAt: now }, now) !== null) return true;
  return (state().until.get(sessionHash(sid)) ?? 0) > now;
}
