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

/**
 * What a health means when the lock's store says nothing more: true on every store and format (no refresh, TTL or
 * object words). Each store's own, sharper words come with the lock (`terms.health`, lib/lock/stores/<store>).
 */
export const HEALTH_MEANING: Record<LockHealth, string> = {
  healthy: 'Held, and nothing the store shows says its holder has stopped.',
  overdue:
    'Late: the holder has not done by now what its format expects of a running holder. It may be slow, paused or crashed.',
  expired: 'Stale: by its own rules any acquirer may take it over.',
  'long-held': 'Held longer than the configured limit. Check the job is not stuck.',
  unknown:
    'Liveness cannot be judged: this lock records no expiry and nothing shows whether its holder still runs. It never expires by itself; only its owner or an operator can clear it.',
  free: 'A released marker: nobody holds the lock.',
};

/** "Safe to clear?" when the lock's store says nothing more (what clearing does comes from `terms.effect`). */
const RELEASE_ADVICE: Record<LockHealth, string> = {
  expired: 'Yes: the lock is stale by its own rules.',
  overdue: 'Caution: the holder may still be running, only slow. Clearing lets another job run concurrently with it.',
  'long-held': 'Only if you know its job is stuck.',
  healthy: 'Only if you know its holder must stop: nothing shows it has.',
  unknown: 'Its liveness cannot be judged: check with its owner before clearing.',
  free: 'Nobody holds it: clearing this released marker is harmless but rarely needed.',
};

type Worded = Pick<LockInfo, 'terms'>;

/** What `health` means for this lock: its store's words for its format, else the neutral ones. */
export const healthMeaning = (lock: Worded, health: LockHealth): string =>
  lock.terms?.health?.meaning?.[health] ?? HEALTH_MEANING[health];

/** "Safe to clear?" for this lock in `health`: its store's words for its format, else the neutral ones. */
export const releaseAdvice = (lock: Worded, health: LockHealth): string =>
  lock.terms?.health?.advice?.[health] ?? RELEASE_ADVICE[health];

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
