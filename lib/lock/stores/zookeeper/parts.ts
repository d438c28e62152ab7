// A recipe's own node named directly (a waiter's or a holder's znode, a semaphore lease, a lease_holder): shown as part
// of its lock, never released by that name. A waiter is never released at all (removing its node can let two
// contenders hold the lock at once); a holder's node is released through its lock, by the lock's version.
import { notALockView, type LockView } from '../../store';
import { lockOfPath } from './feed';
import { isKazooLease, recipeNode } from './recipes';
import { zookeeperTerms } from './words';

export function isContenderNode(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return recipeNode(base) !== null || base === 'lease_holder' || isKazooLease(base);
}

/** The lock a contender node belongs to: its parent, or the recipe's logical lock (`<p>/leases` → `<p>`). */
export const lockOfNode = (path: string): string => lockOfPath(path.slice(0, path.lastIndexOf('/')) || '/');

export function partView(
  name: string,
  lock: LockView,
  o: { kind: string; source: string; nowMs: number; size: number },
): LockView | null {
  const at = lock.waiters?.findIndex((w) => w.key === name) ?? -1;
  const holder = lock.details.some(
    ([label, v]) => label.startsWith('Holder') && v.startsWith(name.slice(name.lastIndexOf('/') + 1)),
  );
  if (at < 0 && !holder) return null;
  const base = notALockView({
    ...o,
    name,
    what: at >= 0 ? 'A waiter' : 'A holder’s node',
    terms: zookeeperTerms({ notTold: null, reusedNames: false, ephemeral: true }),
  });
  return at >= 0
    ? {
        ...base,
        queuedFor: lock.name,
        note: `A waiter queued for ${lock.name} (number ${at + 1} in line): Lockboard never releases a waiter (removing its node can let two contenders hold the lock at once). Release the holder of ${lock.name} instead.`,
      }
    : {
        ...base,
        note: `The holder’s node of ${lock.name}: release the lock ${lock.name} by its version (shown with the lock) instead.`,
      };
}
