// How loud a release control is (client-safe): red only where the verdict or the lock's own expiry says its holder
// is done (expired, overdue, gone, stalled) and the caller may release it; a healthy or live holder's release, and one
// the caller may not make, are quiet secondary controls. The bulk release counts only what it would tick.
import type { LockInfo } from '@/lib/lock/types';

type Toned = Pick<LockInfo, 'health' | 'releasable' | 'verdict'>;

/**
 * Whether the lock's own expiry or its verdict says its holder is done (never where the verdict says it is alive):
 * the one case a release control is red, and the only locks a bulk release ticks for the caller.
 */
export function holderDone(lock: Pick<LockInfo, 'health' | 'verdict'>): boolean {
  const verdict = lock.verdict;
  if (verdict === 'alive') return false;
  return lock.health === 'expired' || lock.health === 'overdue' || verdict === 'gone' || verdict === 'stalled';
}

/** A release control's colours: red for a releasable lock whose holder is done, else quiet. */
export const releaseTone = (lock: Toned): 'loud' | 'quiet' => (lock.releasable && holderDone(lock) ? 'loud' : 'quiet');

/** The colours of each tone (sizes are the control's own). */
export const TONE_CLASSES = {
  quiet:
    'text-zinc-700 ring-1 ring-inset ring-zinc-300 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-50 dark:text-zinc-300 dark:ring-zinc-600 dark:hover:bg-zinc-800',
  loud: 'font-medium text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-50 dark:text-red-300 dark:ring-red-700 dark:hover:bg-red-950',
} as const;

/**
 * How many of the matched locks a bulk release would tick (release-care.ts preselected), from the server's counts by
 * health over the selection: the expired ones, and the overdue ones and released markers where the caller may release
 * any lock (a releaser may release neither). Null where the counts cannot say (a text or verdict filter narrows the
 * match beyond them).
 */
export function readyCount(
  counts: Partial<Record<LockInfo['health'], number>> | undefined,
  query: { q?: string; health?: string; verdict?: string },
  releasesAny: boolean,
): number | null {
  if (!counts || query.q?.trim() || query.verdict) return null;
  const ticked: LockInfo['health'][] = releasesAny ? ['expired', 'overdue', 'free'] : ['expired'];
  return ticked.reduce((n, h) => n + (query.health && query.health !== h ? 0 : (counts[h] ?? 0)), 0);
}
