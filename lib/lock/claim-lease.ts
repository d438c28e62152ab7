// Webhook delivery claims as leases (#57): one record per event and webhook beside the trail, `{ owner, until, state
// }`, every change to it one conditional write of the store's own (created only if absent, replaced only if unchanged
// since it was read). The replica that creates it delivers, renewing `until` while it does, and marks it `delivered` or
// `failed` at the end. A `pending` claim whose `until` has passed (its replica crashed, was restarted or dropped it) is
// taken over by the first replica to replace it, keeping the series' attempts and start: every event is delivered at
// least once however replicas come and go; a receiver drops a repeat by its X-Lockboard-Delivery.

type ClaimState = 'pending' | 'delivered' | 'failed';

export interface ClaimLease {
  owner: string;
  /** Until when `owner` holds it, on the store's clock (ms since the epoch). */
  until: number;
  state: ClaimState;
  /** The delivery series so far: a replica taking it over keeps counting, and gives up at the same hour. */
  attempts: number;
  firstAt: number;
}

/** A store's claim records: each call one conditional write (or one read) in that store. */
export interface ClaimRecords {
  /** Creates `key` with `body` only if absent: its version, or null when it was there. */
  create(key: string, body: string): Promise<string | null>;
  /** The record and its version, or null when absent. */
  read(key: string): Promise<{ body: string; version: string } | null>;
  /** Replaces `key` only if it is still at `version`: the new version, or null when it changed meanwhile. */
  replace(key: string, body: string, version: string): Promise<string | null>;
}

/** What `LockStore.claim(key, lease)` hands a store's claim records to (where it keeps them). */
export type ClaimLeasing = (records: ClaimRecords) => Promise<boolean>;

/** A claim this replica holds: the version it last wrote (its next write is pinned to it). */
export interface HeldClaim {
  key: string;
  version: string;
  lease: ClaimLease;
}

type TakeResult = { held: HeldClaim; takenFrom?: string } | { held?: undefined; lease: ClaimLease };

const encode = (l: ClaimLease): string => JSON.stringify(l);

/** A record's lease; a marker of the create-only claims before leases (`{}`, `1`) was sent once: settled. */
export function decodeLease(body: string): ClaimLease {
  try {
    const l = JSON.parse(body) as Partial<ClaimLease>;
    const states: unknown[] = ['pending', 'delivered', 'failed'];
    if (typeof l.owner === 'string' && typeof l.until === 'number' && states.includes(l.state))
      return {
        owner: l.owner,
        until: l.until,
        state: l.state!,
        attempts: Number(l.attempts) || 0,
        firstAt: typeof l.firstAt === 'number' ? l.firstAt : l.until,
      };
  } catch {}
  return { owner: '', until: 0, state: 'delivered', attempts: 0, firstAt: 0 };
}

/** Creates the claim, or takes over an expired pending one; otherwise answers the lease that stands. */
export async function takeClaim(
  records: ClaimRecords,
  key: string,
  owner: string,
  now: number,
  leaseMs: number,
): Promise<TakeResult> {
  const fresh: ClaimLease = { owner, until: now + leaseMs, state: 'pending', attempts: 0, firstAt: now };
  let seen: ClaimLease | undefined;
  for (let tries = 0; tries < 3; tries++) {
    const made = await records.create(key, encode(fresh));
    if (made !== null) return { held: { key, version: made, lease: fresh } };
    const current = await records.read(key);
    if (!current) continue; // removed between the two (a prune): create it again
    seen = decodeLease(current.body);
    if (seen.state !== 'pending' || seen.until > now) return { lease: seen };
    const next: ClaimLease = { ...seen, owner, until: now + leaseMs };
    const version = await records.replace(key, encode(next), current.version);
    if (version !== null) return { held: { key, version, lease: next }, takenFrom: seen.owner };
  }
  return { lease: seen ?? { ...fresh, owner: '' } }; // another replica kept changing it: it is alive
}

/** Extends the lease (and records the attempts made): the claim as now held, or null when another took it over. */
export async function renewClaim(
  records: ClaimRecords,
  held: HeldClaim,
  now: number,
  leaseMs: number,
  attempts = held.lease.attempts,
): Promise<HeldClaim | null> {
  return rewrite(records, held, { ...held.lease, until: now + leaseMs, attempts });
}

/** The series ended: `delivered`, or `failed` (refused, or given up after its hour); never taken over again. */
export function settleClaim(
  records: ClaimRecords,
  held: HeldClaim,
  state: Exclude<ClaimState, 'pending'>,
  attempts = held.lease.attempts,
): Promise<HeldClaim | null> {
  return rewrite(records, held, { ...held.lease, state, attempts });
}

/** Hands the claim back still pending and already expired (a full queue, a shutdown): any replica takes it at once. */
export function releaseClaim(records: ClaimRecords, held: HeldClaim, attempts = held.lease.attempts) {
  return rewrite(records, held, { ...held.lease, until: 0, attempts });
}

async function rewrite(records: ClaimRecords, held: HeldClaim, lease: ClaimLease): Promise<HeldClaim | null> {
  const version = await records.replace(held.key, encode(lease), held.version);
  return version === null ? null : { key: held.key, version, lease };
}
