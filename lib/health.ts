// Client-safe words for lock health (computed on the server by inspectLock; this only explains it).
import { LOCK_HEALTHS, type LockHealth, type LockInfo } from '@/lib/lock/types';

/** Most urgent first: the order of chips and of the health sort. */
export const HEALTHS: readonly LockHealth[] = LOCK_HEALTHS;

export const HEALTH_LABEL: Record<LockHealth, string> = {
  healthy: 'Healthy',
  overdue: 'Overdue',
  expired: 'Expired',
  'long-held': 'Long-held',
  unknown: 'Unknown',
  free: 'Free',
};

export const HEALTH_MEANING: Record<LockHealth, string> = {
  healthy: 'The holder is refreshing on schedule.',
  overdue: 'A refresh is late (1.5 intervals without one). The holder may be slow, paused or crashed.',
  expired: 'Not refreshed within its TTL. Any acquirer may take it over; safe to clear.',
  'long-held': 'Alive, but held longer than the configured limit. Check the job is not stuck.',
  unknown:
    'Liveness cannot be judged: a format without a TTL (Terraform, Pulumi, plain object) or an unreadable expiry. It never expires by itself; only an operator can clear it.',
  free: 'A released marker: the library keeps the object after release. Nobody holds the lock.',
};

export const RELEASE_ADVICE: Record<LockHealth, string> = {
  expired: 'Safe to clear: the holder stopped refreshing and the lock is stale.',
  overdue: 'Caution: the holder may still be alive and only slow. Clearing lets another job run concurrently with it.',
  'long-held': 'The holder is alive and refreshing. Clear only if you know its job is stuck; it will be aborted.',
  healthy: 'The holder is alive and refreshing. Clearing aborts its work at its next refresh.',
  unknown: 'Its liveness cannot be judged: check with its owner (Terraform: the user in "Who") before clearing.',
  free: 'Nobody holds it: this is a released marker. Deleting it is harmless but rarely needed.',
};

/**
 * The health of `lock` at `serverNow`, moving on from the server's judgement between polls by the same rules
 * (expired or free at `expiresAt`, overdue 1.5 refresh intervals after the last refresh), so the badge, the counts
 * and the countdown never disagree. A refresh can only be seen by the next poll.
 */
export function liveHealth(lock: LockInfo, serverNow: number): LockHealth {
  const h = lock.health;
  if (h !== 'healthy' && h !== 'overdue' && h !== 'long-held') return h;
  if (lock.expiresAt && lock.afterExpiry && serverNow >= Date.parse(lock.expiresAt)) return lock.afterExpiry;
  if (h !== 'healthy' || !lock.refreshIntervalMs) return h;
  return serverNow >= Date.parse(lock.updatedAt) + 1.5 * lock.refreshIntervalMs ? 'overdue' : h;
}

/** `locks` with their live health; the same objects where nothing changed. */
export function withLiveHealth(locks: LockInfo[], serverNow: number): LockInfo[] {
  return locks.map((l) => {
    const health = liveHealth(l, serverNow);
    return health === l.health ? l : { ...l, health };
  });
}
