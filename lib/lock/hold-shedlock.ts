// A hold as a ShedLock row (lukas-krecan/ShedLock's JDBC providers): `locked_by` names the hold (owner, end, reason),
// `lock_until` is its end; ShedLock's tasks skip while lock_until is ahead, and the row frees itself after it.
import { LockOptionsError } from './errors';
import type { HoldFormat, HoldPlan } from './hold-types';
import { holdOwner } from './hold-marker';

/** The format, with how the store names a row (`SCHEMA.TABLE/NAME`, `TABLE/NAME`). */
export const shedlockHold = (fits: (name: string) => boolean): HoldFormat => ({
  id: 'shedlock',
  label: 'a ShedLock row',
  maxMs: 366 * 86_400_000,
  maxWords: 'lock_until, a timestamp; Lockboard takes durations up to 366 days',
  endsItself: true,
  fits,
});

/** A session-bound lock of a SQL server (PostgreSQL's advisory locks, MySQL's named locks): refused with why. */
export const sessionHold = (id: string, label: string, prefix: string): HoldFormat => ({
  id,
  label,
  maxMs: 0,
  maxWords: 'the session that holds it',
  endsItself: true,
  fits: (name) => name.startsWith(prefix),
  session: 'the server releases it when that session ends, and no row or key is left to hold',
});

/** `locked_by` of a hold, checked against the column's length (a usage error, nothing written, when it would not fit). */
export function shedlockOwner(plan: HoldPlan, max: number | null): string {
  const owner = holdOwner(plan.operator, plan.untilMs, plan.reason);
  const length = [...owner].length;
  if (max !== null && length > max)
    throw new LockOptionsError(
      `The hold's locked_by would be ${length} characters; this table's locked_by takes at most ${max}: shorten --reason.`,
    );
  return owner;
}
