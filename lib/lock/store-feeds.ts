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
   * Holder evidence read a moment ago is good enough (each store bounds it: a lock file's process scan a quarter
   * second old, a Lease holder's Pod list a second old): a change feed's burst of reads, a page re-read after a change.
   * Without it the holder is read now, as a release's re-judgment and the CLI need it. Stores whose reads carry no such
   * evidence ignore it.
   */
  recent?: boolean;
}

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
