// What counts as a change of a lock for the live view: what a browser shows of it moved.
import type { LockView } from '@/lib/lock/store';

/** What a browser shows changed: another version, health, expiry (a refresh that keeps the version), or read state. */
export const changed = (before: LockView | undefined, now: LockView): boolean =>
  !before ||
  before.version !== now.version ||
  before.health !== now.health ||
  moved(before.expiresAt, now.expiresAt) ||
  before.pending !== now.pending;

/** An expiry read from a TTL wobbles by the milliseconds between two reads: only a move of over a second counts. */
function moved(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a !== b;
  return Math.abs(Date.parse(a) - Date.parse(b)) > 1_000;
}
