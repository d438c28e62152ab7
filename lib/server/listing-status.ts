// How far a source's listing is, and whether the source answers: what a window says beside its rows ("listed 230 000
// of ~1 000 000 keys", "unreachable since 10:42: Connection refused; showing the last good listing of 10:41").

export interface SourceState {
  source: string;
  /** A whole pass has completed at least once: counts and filters cover every lock. */
  complete: boolean;
  /** A pass is walking the store now. */
  listing: boolean;
  /** Keys, objects or rows walked by the pass under way (or the last one). */
  listed: number;
  /** The store's own estimate of what a pass walks (Redis DBSIZE), where it has one. */
  estimate?: number;
  /** Not locks, in the last complete pass. */
  skipped: number;
  /** Why some of those were skipped, where the store says (a bounded sample: SKIPPED_WHY_SHOWN at most). */
  skippedWhy?: string[];
  /** The store's clock at the last good read. */
  serverTime: string;
  /** The last pass that failed: the store's own words and when. */
  error?: { message: string; at: string };
  /** When the source last answered a whole pass (console clock, ISO). */
  lastGoodRead?: string;
  /** How changes reach the screen (lib/console/live-label.ts words it). */
  live?: LiveMode;
}

/**
 * Pushed (by the store's change feed or to the push route), and listed only as a check every `checkMs`; or polled
 * at this pace, with why where the source takes pushes: none came yet, or they stopped (`quietMs` since the last)
 * or lost changes a check found (lib/server/live/push-pace.ts).
 */
export type LiveMode =
  { push: string; checkMs: number } | { pollMs: number; pushes?: 'none yet' | { missed: number; quietMs?: number } };

/** At most this many of the store's reasons for skipping are kept per source (the note's sample, not a log). */
export const SKIPPED_WHY_SHOWN = 10;

export class ListingStatus {
  complete = false;
  listing = false;
  listed = 0;
  estimate: number | undefined;
  skipped = 0;
  private skippedNow = 0;
  skippedWhy: string[] = [];
  private whyNow: string[] = [];
  serverTime = '';
  /** Console clock (ms) of the last store answer: moves `serverTime` on between reads. */
  readAt = Date.now();
  error: { message: string; at: string } | undefined;
  lastGoodRead: string | undefined;

  begin(estimate: number | undefined): void {
    this.listing = true;
    this.listed = 0;
    this.skippedNow = 0;
    this.whyNow = [];
    if (estimate !== undefined) this.estimate = estimate;
  }

  page(listed: number, skipped: number, serverTime: string, why: readonly string[] = []): void {
    this.listed += listed;
    this.skippedNow += skipped;
    for (const w of why) if (this.whyNow.length < SKIPPED_WHY_SHOWN) this.whyNow.push(w);
    if (!this.complete) {
      this.skipped = this.skippedNow;
      this.skippedWhy = this.whyNow;
    }
    if (serverTime) this.serverTime = serverTime;
    this.readAt = Date.now();
  }

  finish(): void {
    this.complete = true;
    this.listing = false;
    this.skipped = this.skippedNow;
    this.skippedWhy = this.whyNow;
    this.error = undefined;
    this.lastGoodRead = new Date().toISOString();
  }

  fail(message: string): void {
    this.listing = false;
    this.error = { message, at: new Date().toISOString() };
  }

  state(source: string): SourceState {
    return {
      source,
      complete: this.complete,
      listing: this.listing,
      listed: this.listed,
      ...(this.estimate !== undefined ? { estimate: this.estimate } : {}),
      skipped: this.skipped,
      ...(this.skippedWhy.length ? { skippedWhy: this.skippedWhy } : {}),
      serverTime: this.serverTime,
      ...(this.error ? { error: this.error } : {}),
      ...(this.lastGoodRead ? { lastGoodRead: this.lastGoodRead } : {}),
    };
  }
}

/** A source's state for a reader whose grants cover only some locks: the skipped entries' names left out. */
export function stateForScope(state: SourceState, scoped: boolean): SourceState {
  if (!scoped || !state.skippedWhy) return state;
  const rest = { ...state };
  delete rest.skippedWhy;
  return rest;
}
