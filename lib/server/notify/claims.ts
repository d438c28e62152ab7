// One delivery series per event and webhook across every replica, at least once. Where the store keeps its claims as
// leases (LockStore.claim with a `lease`) the claim is a lease (lib/lock/claim-lease.ts): the replica that creates it
// delivers and keeps it alive; one that finds it pending tries again when its lease runs out, and takes it over if it
// did (its replica crashed, restarted or dropped it). A store with only create-only markers (`claim`) delivers at most
// once across replicas (a claim lost with its replica is not sent again); one with neither claims within this replica,
// and says so once.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { takeClaim } from '@/lib/lock/claim-lease';
import { canClaim, type LockStore } from '@/lib/lock/store';
import { stableId } from './event';
import { JobLease } from './job-lease';

const local = new Set<string>();
const warned = new Set<string>();
const MAX_LOCAL = 100_000;

/** A claim's lease: long enough for an attempt (5 s) and a renewal's write, short enough to take over soon. */
export const DEFAULT_LEASE_MS = 60_000;

/** This replica, as a claim's owner names it. */
export const newOwner = (): string => `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;

/** The claim's key for one event told to one webhook. */
export const claimKey = (eventId: string, webhook: string): string => `notify-${stableId([eventId, webhook])}`;

type ClaimOutcome =
  | { won: true; lease?: JobLease; takenFrom?: string }
  /** `retryAt`: when a pending claim of another replica runs out (this process's clock), to try to take it over. */
  | { won: false; retryAt?: number };

/** Claims `key` for `owner`; store errors throw (the event is offered again later). */
export async function claimFor(
  store: LockStore,
  key: string,
  owner: string,
  leaseMs: number,
  log: (line: string) => void,
): Promise<ClaimOutcome> {
  if (!canClaim(store)) return { won: await claimOnce(store, key, log) };
  let leased: ClaimOutcome | undefined;
  // a store that keeps leases hands its records to the callback; one that does not makes its create-only marker
  const won = await store.claim(key, async (records) => {
    const now = store.now();
    const r = await takeClaim(records, key, owner, now, leaseMs);
    if (r.held) {
      const lease = new JobLease(
        records,
        r.held,
        () => store.now(),
        leaseMs,
        (err) => warnOnce(store, err, log),
      );
      leased = { won: true, lease, ...(r.takenFrom ? { takenFrom: r.takenFrom } : {}) };
    } else
      leased = {
        won: false,
        ...(r.lease.state === 'pending' ? { retryAt: Date.now() + r.lease.until - now + 100 } : {}),
      };
    return leased.won;
  });
  return leased ?? { won };
}

const said = new Set<string>();

/** A claim write the store refused, said once per store and message (the claim then runs out and is taken over). */
function warnOnce(store: LockStore, err: Error, log: (line: string) => void): void {
  const line = `[lockboard] webhooks: a delivery claim on ${store.source} was not written (its lease runs out, and another replica may send the event again): ${err.message}`;
  if (said.has(line)) return;
  if (said.size > 1_000) said.clear();
  said.add(line);
  log(line);
}

/** The create-only marker (or this replica's memory): true for the one caller that claimed `key` first. */
export async function claimOnce(store: LockStore, key: string, log: (line: string) => void): Promise<boolean> {
  if (canClaim(store)) return store.claim(key);
  if (!warned.has(store.kind)) {
    warned.add(store.kind);
    log(
      `[lockboard] ${store.source}: this store keeps no create-only marker; webhooks are claimed per replica (run one replica, or expect one delivery per replica)`,
    );
  }
  if (local.has(key)) return false;
  if (local.size >= MAX_LOCAL) local.delete(local.values().next().value!);
  local.add(key);
  return true;
}
