// A source's change feed for the life of the console process (lib/server/live/watcher.ts uses it): opened at start-up or
// by the first watcher, kept while nobody watches (GCS: this replica's pull subscription exists before anyone looks),
// closed when the process stops. A source with no feed (or one that failed) is looked at again at most every
// 5 minutes, for a notification config added since; why it has none is logged once, not at every look.
import 'server-only';
import { canObserve, hasChangeFeed, type ChangeFeed, type ChangeFeedHandlers } from '@/lib/lock/store';
import { setFeedMode } from '../metrics/metrics';
import { storeFor } from '../stores';
import type { Source } from '../sources';

const RECHECK_MS = 5 * 60_000;

export class SourceFeed {
  private feed: ChangeFeed | null = null;
  private opening: Promise<void> | undefined;
  private checkedAt = 0;
  private closed = false;
  private warned = '';
  private pushRoute = false;

  constructor(
    private readonly source: Source,
    private readonly handlers: ChangeFeedHandlers & { opened(description: string): void },
  ) {}

  /** The store takes pushes outside a feed (GCS notifications to /api/gcs-events), known once the store opened. */
  get takesPushes(): boolean {
    return this.pushRoute || this.feed !== null;
  }

  /** What feeds the changes, as an operator would recognise it; null when the store is listed at its pace. */
  get description(): string | null {
    return this.feed?.description ?? null;
  }

  /** Whether the store reports its changes (else the watcher lists at the store's pace). */
  get active(): boolean {
    return this.feed !== null;
  }

  /** Opens the feed if it is not open (or looks again for one, at most every 5 minutes); rejects if the store cannot be opened. */
  open(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.opening && !this.feed && Date.now() - this.checkedAt > RECHECK_MS) this.opening = undefined;
    this.opening ??= this.start().catch((err: unknown) => {
      this.opening = undefined; // the store is unreachable now: the next watcher tries again
      throw err;
    });
    return this.opening;
  }

  /** Process exit: the feed stopped (GCS: the subscription deleted; it would expire by itself a day later). */
  async close(): Promise<void> {
    this.closed = true;
    const feed = this.feed;
    this.feed = null;
    await feed?.stop().catch(() => undefined);
  }

  private async start(): Promise<void> {
    this.checkedAt = Date.now();
    const store = await storeFor(this.source);
    this.pushRoute = canObserve(store);
    const feed = await (hasChangeFeed(store) ? store.changes(this.handlers) : Promise.resolve(null)).catch(
      (err: unknown) => {
        this.warnOnce((err as Error).message);
        return null;
      },
    );
    if (this.closed) return void (await feed?.stop().catch(() => undefined));
    this.feed = feed;
    setFeedMode(this.source, feed ? feed.description : null);
    if (feed) this.handlers.opened(feed.description);
  }

  private warnOnce(why: string): void {
    if (why === this.warned) return;
    this.warned = why;
    const until = this.pushRoute ? 'polled until pushes arrive' : 'polled at its store’s pace';
    console.warn(`[lockboard] ${this.source.id}: no change feed (${why}); ${until}`);
  }
}
