// The gone-holder tracker fed by the watchers' changes (each row as it is now), only while some webhook wants
// `holder-gone` (following a source keeps its watcher listing); a row's verdict is read where its store judges one
// (lib/lock/verdict: whatever the store, `gone` means positive evidence the holder no longer exists), and a lock that
// went stops its clock. No store is named here: a store that starts judging `gone` is told of with no change.
import type { Row } from '@/lib/lock/query/row';
import { watcherFor } from '../live/watch';
import type { Source } from '../sources';
import type { HolderGoneTracker, HolderView } from './holder-gone';

export class GoneFeed {
  private stops: (() => void)[] | undefined;

  constructor(
    private readonly sources: () => Source[],
    private readonly tracker: HolderGoneTracker,
  ) {}

  /** Follows the sources when `wanted` (a webhook listens for holder-gone), stops following when not. */
  sync(wanted: boolean): void {
    if (wanted && !this.stops) this.stops = this.sources().map((s) => this.follow(s));
    if (!wanted && this.stops) {
      this.stops.forEach((stop) => stop());
      this.stops = undefined;
    }
  }

  private follow(source: Source): () => void {
    return watcherFor(source).subscribe((change) => {
      if (!change) return;
      const now = Date.now();
      for (const c of change.changes) {
        if (c.after) this.tracker.observe(source, [holderViewOf(c.after)], now);
        else if (c.before) this.tracker.forget(source, c.before.name);
      }
    });
  }
}

/** What the tracker reads of an index row: its verdict is an object there ({ verdict, sentence, evidence }). */
export function holderViewOf(row: Row): HolderView {
  return {
    name: row.name,
    version: row.version,
    ...(row.format ? { format: row.format } : {}),
    ...(row.identity !== undefined ? { identity: row.identity } : {}),
    ...(row.verdict ? { verdict: row.verdict.verdict, sentence: row.verdict.sentence } : {}),
  };
}
