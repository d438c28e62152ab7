// How an etcd lock is shown: the holder key, its lease (hex and decimal, TTL remaining and granted, the other keys a
// revoke would also drop), the waiters in grant order, "seen since" (etcd keeps no wall-clock time), in etcd's words.
import type { LockView, LockWaiter } from '../../store';
import type { LockHealth } from '../../types';
import { identityOf, leaseHex, type EtcdFormat, type EtcdKv, type EtcdReading } from './formats';
import { etcdTerms, QUEUED } from './words';

/** What `LeaseTimeToLive(keys: true)` says of a lease; null when it has no lease or the lease is gone. */
export interface LeaseInfo {
  ttl: number;
  granted: number;
  /** null: this role may not read every key of the lease. */
  keys: string[] | null;
}

export interface ViewContext {
  source: string;
  now: number;
  /** First time each key (at its create revision) was seen: "seen since". */
  firstSeen: Map<string, number>;
  longHeldMs?: number;
}

export function seenSince(kv: EtcdKv, c: ViewContext): number {
  const k = `${kv.key}\u0000${kv.createRevision}`;
  const at = c.firstSeen.get(k) ?? c.now;
  c.firstSeen.set(k, at);
  return at;
}

export function etcdView(r: EtcdReading, lease: LeaseInfo | null, c: ViewContext): LockView {
  const since = seenSince(r.holder, c);
  const election = r.format === 'etcd-election';
  const waiters: LockWaiter[] = r.waiters.map((w) => ({
    identity: identityOf(r.format, w),
    key: w.key,
    since: new Date(seenSince(w, c)).toISOString(),
    version: w.createRevision,
  }));
  const health: LockHealth =
    lease && lease.ttl <= 0
      ? 'expired'
      : c.longHeldMs !== undefined && c.now - since > c.longHeldMs
        ? 'long-held'
        : lease
          ? 'healthy'
          : 'unknown';
  const others = lease?.keys ? lease.keys.filter((k) => k !== r.holder.key) : [];
  const alsoDropped =
    lease && !lease.keys ? 'not known (this role may not read every key of the lease)' : others.join(', ');
  return {
    store: 'etcd',
    source: c.source,
    bucket: c.source,
    name: r.name,
    format: r.format,
    formatLabel: r.label,
    identity: identityOf(r.format, r.holder),
    generation: r.holder.createRevision,
    metageneration: r.holder.modRevision,
    createdAt: new Date(since).toISOString(),
    updatedAt: new Date(since).toISOString(),
    heldMs: Math.max(0, c.now - since),
    ...(lease ? { ttlMs: lease.granted * 1000, expiresAt: new Date(c.now + lease.ttl * 1000).toISOString() } : {}),
    // no afterExpiry: a keepalive renews the lease without a write (the watch sees none), and a lease that runs out
    // has its keys deleted by etcd (the watch sees that). A row made expired at the read's expiry was not: the list
    // said "Expired" while the page's fresh read said "Alive". expiresAt is as of the read, as the TTL detail says
    health,
    metadata: {},
    details: [
      [election ? 'Leader key' : 'Holder key', r.holder.key],
      ['Create revision', r.holder.createRevision],
      ['Lease', leaseLabel(r.holder.lease)],
      ['Lease TTL', lease ? `${lease.ttl} s remaining of ${lease.granted} s granted` : 'none (lease gone)'],
      ['A lease revoke would also drop', alsoDropped || 'no other key'],
      [election ? 'Candidates waiting' : 'Waiters', String(waiters.length)],
      ['Held for', 'seen since (etcd keeps no wall-clock time for keys or leases)'],
    ],
    releasable: true,
    releaseRule: 'delete',
    releaseNote: releaseNoteOf(r.format),
    size: r.holder.value.length,
    version: r.holder.createRevision,
    versionLabel: `create revision ${r.holder.createRevision}`,
    terms: etcdTerms(r.format, lease !== null),
    waiters,
  };
}

function releaseNoteOf(format: EtcdFormat): string {
  if (format === 'etcd-election')
    return 'Deletes the leader’s key if its create revision is still the one you saw; the next candidate leads at once. The old leader is not told: it may act as leader until it next checks its key.';
  const next = QUEUED.includes(format) ? ' the first waiter gets the lock at once;' : '';
  return `Deletes the holder’s key if its create revision is still the one you saw;${next} the holder is not told, and its lease and other keys are left alone.`;
}

export function leaseLabel(lease: string): string {
  return lease === '0' ? 'none' : `${leaseHex(lease)} (decimal ${lease})`;
}
