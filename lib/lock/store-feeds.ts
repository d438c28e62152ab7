// The live view's optional parts of the LockStore interface: metadata-first listings and change feeds.
import type { LockView } from './store';

/**
 * Metadata first (optional for a store; one whose listing reads no bodies ignores it): objects whose body is not read
 * yet are listed at once as `pending`, their bodies read in the background with bounded concurrency, and each batch
 * read is reported to `later` (the views, and the names that turned out not to be locks).
 */
export interface ListOptions {
  later?: (read: { views: LockView[]; dropped: string[] }) => void;
  /** Fewer objects on this page than the store's usual page (a first screen); stores without pages ignore it. */
  pageSize?: number;
}

/** How an inspection may read its evidence. */
export interface InspectOptions {
  /**
   * How old holder evidence read before may be, in ms, compared with the time each piece was read: a change feed's
   * burst of reads, a page re-read after a change, a waiter polling (BURST_EVIDENCE_MS). Absent or 0: the holder is read
   * now, as a release's re-judgment and the CLI need it. A store bounds it further by how long its evidence stays
   * meaningful (a lock file's process scan a quarter second, a Lease holder's Pod list a second); stores whose reads
   * carry no such evidence ignore it.
   */
  maxEvidenceAgeMs?: number;
}

/** The evidence age a burst of reads accepts: a change feed's, a lock page's after a change, a waiter's polls. */
export const BURST_EVIDENCE_MS = 1_000;

export interface ChangeFeedHandlers {
  /** These names were created, changed or deleted (reported at `sentAt`, ms, where the feed says): read them again. */
  changed(names: string[], sentAt?: number): void;
  /** Changes may have been missed (a reconnect, a gap): list again. */
  missed(reason: string): void;
}

export interface ChangeFeed {
  /** What feeds the changes, as an operator would recognise it (for the console's log and metrics). */
  readonly description: string;
  stop(): Promise<void>;
}
