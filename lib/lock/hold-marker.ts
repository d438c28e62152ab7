// How a hold names itself inside a format's own owner field ("alice (lockboard hold until 2026-…Z)"), so that every
// contender prints who and until, and Lockboard knows its holds again from any store's view without a side table.
import type { LockInfo } from './types';

const MARK = /^(.*) \(lockboard hold until (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)\)(?:: ([\s\S]*))?$/;

/** What a view says of a hold: who placed it, why, and until when (ISO, the store's clock). */
export interface HoldFacts {
  operator: string;
  reason?: string;
  until: string;
}

/** The owner field of a hold; with `reason` for formats that have no field of their own for it. */
export function holdOwner(operator: string, untilMs: number, reason?: string): string {
  const until = new Date(untilMs).toISOString();
  return `${operator} (lockboard hold until ${until})${reason === undefined ? '' : `: ${reason}`}`;
}

/** The hold a view shows, or null when it is no hold. The reason is the owner field's, else the format's own. */
export function holdOf(view: Pick<LockInfo, 'identity' | 'purpose' | 'details'>): HoldFacts | null {
  const m = view.identity === undefined ? null : MARK.exec(view.identity);
  if (!m) return null;
  const own = view.details.find(([label]) => label === 'Info' || label === 'Purpose')?.[1];
  const reason = m[3] ?? own ?? view.purpose;
  return { operator: m[1]!, until: m[2]!, ...(reason ? { reason } : {}) };
}
