// The gone-holder tracker fed by the watchers' changes (each row as it is now), only while some webhook wants
// `holder-gone` (following a source keeps its watcher listing); a row's verdict is read where its store judges one
// (lib/lock/verdict: whatever the store, `gone` means positive evidence the holder no longer exists), and a lock that
// went stops its clock. A new subscription starts from the locks the watcher holds already (those gone before it are
// told too, `after` from then); an unsubscription forgets every clock (a later one would count stale ones). No store
// is named here: a store that starts judging `gone` is told of with no change.
import type { Row } from '@/lib/lock/query/row';
import { watcherFor } from '../live/watch';
import type { SourceWatcher } from '../live/watcher';
import type { Source } from '../sources';
import type { HolderGoneTracker, HolderView } from './holder-gone';

/** What the feed uses of a source's watcher: its changes and the rows it holds now. */
type GoneWatcher = Pick<SourceWatcher, 'subscribe'> & { index: { rows: ReadonlyMap<string, Row> } };

export class GoneFeed {
  private stops: (() => void)[] | undefined;

  constructor(
    private readonly sources: () => Source[],
    private readonly tracker: HolderGoneTracker,
    private readonly watcher: (source: Source) => GoneWatcher = watcherFor,
  ) {}

  /** Follows the sources when `wanted` (a webhook listens for holder-gone), stops following when not. */
  sync(wanted: boolean): void {
    if (wanted && !this.stops) this.stops = this.sources().map((s) => this.follow(s));
    if (!wanted && this.stops) {
      this.stops.forEach((stop) => stop());
      this.stops = undefined;
      this.tracker.clear();
    }
  }

  private follow(source: Source): () => void {
    const watcher = this.watcher(source);
    const stop = watcher.subscribe((change) => {
      if (!change) return;
      const now = Date.now();
      for (const c of change.changes) {
        if (c.after) this.tracker.observe(source, [holderViewOf(c.after)], now);
        else if (c.before) this.tracker.forget(source, c.before.name);
      }
    });
    const gone = [...watcher.index.rows.values()].filter((r) => r.verdict?.verdict === 'gone');
    this.tracker.observe(source, gone.map(holderViewOf), Date.now());
    return stop;
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
