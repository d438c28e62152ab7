// One rule for how a generation ended, shared by a lock's history (timeline.ts) and the churn page (summary.ts): a
// generation Lockboard released with a confirmed delete (its holder's `released`, an operator's `force-released`)
// was not deleted outside Lockboard, whatever notification of its deletion came before or after the record. Without
// it the two pages disagreed: "released" on the lock's page, "deleted outside Lockboard" on the churn page.
import type { AuditRecord } from '@/lib/lock/audit/record';

type Keyed = Pick<AuditRecord, 'lock' | 'generation'> & { source?: string; bucket?: string };

const keyOf = (e: Keyed) => JSON.stringify([e.source ?? '', e.bucket ?? '', e.lock, e.generation ?? '']);

/** Whether `e` records a release whose delete Lockboard confirmed (an unconfirmed one may have been another's). */
const confirmedRelease = (e: AuditRecord): boolean =>
  (e.event === 'released' || e.event === 'force-released') &&
  e.outcome !== 'error' &&
  e.delete_confirmed !== 'false' &&
  e.generation !== undefined;

/** The deleted-outside records of generations no confirmed release ended: the ones both pages show as such. */
export function outsideDeletions<E extends AuditRecord & { source?: string; bucket?: string }>(events: E[]): Set<E> {
  const released = new Set(events.filter(confirmedRelease).map(keyOf));
  return new Set(events.filter((e) => e.event === 'deleted-outside' && !released.has(keyOf(e))));
}
