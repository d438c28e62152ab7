// A waiter's own key, as `status` and the console show it when asked for it by name: its place in the queue, never
// releasable. Removing a waiter's key made two holders on Debian's etcd 3.4 (its clients never re-read their own key
// after waiting), so Lockboard refuses it and says why (facts-coordination.md Part B §2).
import type { LockView } from '../../store';
import { identityOf, type EtcdKv, type EtcdReading } from './formats';
import { leaseLabel, seenSince, type LeaseInfo, type ViewContext } from './view';
import { etcdTerms } from './words';

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

export function waiterView(r: EtcdReading, w: EtcdKv, lease: LeaseInfo | null, c: ViewContext): LockView {
  const place = r.waiters.findIndex((k) => k.key === w.key) + 1;
  const since = seenSince(w, c);
  const who = r.format === 'etcd-election' ? 'candidate' : 'waiter';
  return {
    store: 'etcd',
    source: c.source,
    bucket: c.source,
    name: w.key,
    format: r.format,
    formatLabel: r.label,
    identity: identityOf(r.format, w),
    generation: w.createRevision,
    metageneration: w.modRevision,
    createdAt: new Date(since).toISOString(),
    updatedAt: new Date(since).toISOString(),
    heldMs: 0,
    health: 'unknown',
    metadata: {},
    details: [
      ['Queued for', r.name],
      ['Place in queue', `${ordinal(place)} of ${r.waiters.length} (after holder ${r.holder.key})`],
      ['Create revision', w.createRevision],
      ['Lease', leaseLabel(w.lease)],
      ['Lease TTL', lease ? `${lease.ttl} s remaining of ${lease.granted} s granted` : 'none (lease gone)'],
      [
        'A lease revoke would also drop',
        lease?.keys ? lease.keys.filter((k) => k !== w.key).join(', ') || 'no other key' : 'not known',
      ],
    ],
    releasable: false,
    releaseRule: 'none',
    releaseNote: `A ${who} is never released: release the holder of ${r.name} instead.`,
    note: `A ${who} queued for ${r.name}, not its holder. Lockboard never releases a ${who}: removing its key can let it and the next one hold the lock at once (etcd 3.4 clients never re-read their own key after waiting).`,
    size: w.value.length,
    version: w.createRevision,
    versionLabel: `create revision ${w.createRevision}`,
    terms: etcdTerms(r.format, w.lease !== '0'),
    queuedFor: r.name,
  };
}
