// The shape of a store's truth table (StoreTerms.health); each store writes its own in its folder.
import type { LockHealth } from './types';

/**
 * What each health means for one store and format, when it changes and whether clearing is safe (one truth table
 * per store, per format where formats differ). A health without an entry gets the neutral words of lib/console/health.ts,
 * which are true on every store.
 */
export interface HealthWords {
  /** What the health means here (the Health row and the badge's explanation). */
  meaning?: Partial<Record<LockHealth, string>>;
  /** "When it changes": what moves this lock out of the health (after the times the lock carries, if any). */
  changes?: Partial<Record<LockHealth, string>>;
  /** "Safe to clear?": whether clearing is safe in this health (what clearing does is `StoreTerms.effect`). */
  advice?: Partial<Record<LockHealth, string>>;
}
