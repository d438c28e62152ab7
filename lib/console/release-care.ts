// How careful a release must be, the same for one lock and for many (client-safe): which locks ask for their name to
// be typed, and which a bulk release may preselect.
import type { LockInfo } from '@/lib/lock/types';

type Judged = Pick<LockInfo, 'health' | 'name'> & { terms?: { confirmByName?: boolean } };

/**
 * A live holder (healthy, long-held), one whose liveness cannot be judged (Terraform, Pulumi, plain objects), and a
 * lock whose release ends more than the lock (an advisory lock: the holder's whole session) need their name typed.
 */
export function needsTypedName(lock: Judged): boolean {
  return (
    lock.health === 'healthy' ||
    lock.health === 'long-held' ||
    lock.health === 'unknown' ||
    lock.terms?.confirmByName === true
  );
}

/**
 * A bulk release preselects only the locks a single release would clear without their name typed, and never one whose
 * verdict says its holder is alive.
 */
export function preselected<L extends Judged & { verdict?: string }>(locks: L[], key: (l: L) => string): Set<string> {
  return new Set(locks.filter((l) => !needsTypedName(l) && l.verdict !== 'alive').map(key));
}

/** The chosen locks whose name must still be typed (exactly) before the bulk release may go ahead. */
export function namesMissing<L extends Judged>(chosen: L[], typed: Record<string, string>, key: (l: L) => string): L[] {
  return chosen.filter((l) => needsTypedName(l) && typed[key(l)] !== l.name);
}
