// etcd's words: a key, its create revision, its lease; "seen since" because etcd records no wall-clock time. A holder
// is not told of a release; waiters of a queued lock (Mutex, Election) take it in grant order.
import type { StoreTerms } from '../../store';
import type { EtcdFormat } from './formats';

/** The formats whose waiters queue: the first waiter gets the lock when the holder's key goes. */
export const QUEUED: EtcdFormat[] = ['etcd-mutex', 'etcd-election'];

/** etcd's words: a key, its create revision, its lease; "seen since" because etcd records no time. */
export function etcdTerms(format: EtcdFormat, hasLease: boolean): StoreTerms {
  const election = format === 'etcd-election';
  return {
    storeLabel: 'etcd',
    versionName: 'create revision of the holder key',
    since: 'Seen since',
    ...(hasLease ? { ttl: 'Lease TTL' } : {}),
    liveness: hasLease
      ? 'The key lives on its holder’s lease: it goes when the holder stops keeping the lease alive and the TTL runs out.'
      : 'The key has no lease: it stays until its owner or an operator deletes it.',
    effect: election
      ? 'Clearing deletes the leader’s key; the next candidate becomes leader, and the old leader is not told: it keeps acting as leader until it next checks its key.'
      : `Clearing deletes the holder’s key;${QUEUED.includes(format) ? ' the first waiter gets the lock at once, and' : ''} the holder is not told: its work keeps running.`,
    rule: 'etcd rule: one transaction, If(CreateRevision(key) == the revision you see) Then Delete(key), on the holder only. A successor’s key has a newer revision, so it is never deleted; waiters are never released (removing a waiter’s key can let two contenders hold the lock at once), and the lease is never revoked (that would drop every key of the holder’s session).',
    trail:
      'Force-releases and Lockboard’s own etcd holders are recorded under lockboard/audit/ in the same etcd; other clients record nothing.',
  };
}
