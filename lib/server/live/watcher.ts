// One watcher per source per console process, shared by every browser and query: it keeps the source's index
// (lib/lock/query), walked page by page (a query answers from the first page on, saying how far the pass is), and
// publishes what changed. Pushed changes (its change feed, or notifications to the push route) are read by name, and
// while pushes are trusted the source is listed only as a check every LOCKBOARD_RECONCILE (60 s); otherwise it lists
// at its store's pace (push-pace.ts decides), while someone watches or asked in the last 10 s (a polling client asks
// every 2 s). A source that cannot be listed keeps its last good rows and says why.
import 'server-only';
import { definitionByKind } from '@/lib/lock/stores';
import type { LockView } from '@/lib/lock/store';
import { env } from '../env';
import { LockIndex, type RowChange } from '../../lock/query/lock-index';
import { countWatchEvent, setWatchPace } from '../metrics/metrics';
import { SourceFeed } from './source-feed';
import { changedHands, liveModeOf, PushPace } from './push-pace';
import { onLaterReads } from '../stores';
import { applyBodies, listPass, pollUntil, readNames } from './watch-reads';
import { sleep } from '@/lib/lock/holding/backoff';
import type { Source } from '../sources';
import { ListingStatus, type SourceState } from '../listing-status';
import { COALESCE_MS, ASKED_KEEPS_MS, SWEEP_MS, QUICK_PASS_MS, FEW_PENDING, BIG_SOURCE } from './watch-pace';

export interface SourceChange {
  source: Source;
  serverTime: string;
  /** Rows added, changed (another version, health, expiry) or gone. */
  changes: RowChange[];
}

type Listener = (change: SourceChange | null) => void;

export class SourceWatcher {
  readonly index = new LockIndex();
  readonly status = new ListingStatus();
  private listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly feed: SourceFeed;
  private pending = new Map<string, number>();
  private flushing: NodeJS.Timeout | undefined;
  private stopReads: (() => void) | undefined;
  private lastListMs = 0;
  private lastPassEnd = 0;
  private askedAt = 0;
  private started = false;
  private readonly pace = new PushPace({ checkMs: env().LOCKBOARD_RECONCILE ?? 60_000 });
  private settling: NodeJS.Timeout | undefined;

  constructor(private readonly source: Source) {
    this.feed = new SourceFeed(source, {
      changed: (names, sentAt) => this.pushed(names, sentAt, this.feed.description ?? 'its change feed'),
      missed: () => (this.pace.gap(), this.nudge()),
      opened: (description) => this.pace.opened(description),
    });
  }

  /** The listing's state; complete only once every row listed metadata first has its body read. */
  state(id: string): SourceState {
    const st = this.status.state(id);
    const pollMs = Math.round(this.pollEvery());
    const live = liveModeOf(this.pace.mode, this.pace.checkMs, pollMs, this.feed.takesPushes);
    return { ...st, live, ...(this.index.pending > 0 ? { complete: false } : {}) };
  }

  /** The pace of listings without a feed: the store's, or twice a pass's length for a big source. */
  private pollEvery(): number {
    return Math.max(definitionByKind(this.source.kind).watchIntervalMs, 2 * this.lastListMs);
  }

  /**
   * A query is about to read the index: the source is listed (its first pass starts now if it never ran; a source
   * whose passes are quick is listed again now, unless trusted pushes keep it whole: `queryLists`). Resolves within
   * `ms`: once there is a first page, a quick pass under way is done and its few bodies listed metadata first are
   * read. A small source answers as fresh and whole as a direct listing did; a big one answers from its index at
   * once, its unread rows marked pending.
   */
  async ready(ms: number): Promise<void> {
    this.askedAt = Date.now();
    this.begin();
    if (this.lastListMs < QUICK_PASS_MS && !this.running && this.queryLists) this.nudge();
    const until = Date.now() + ms;
    const st = this.status;
    await pollUntil(() => st.complete || st.error !== undefined || st.listed > 0, until);
    // a first pass over a source the store says is big (Redis DBSIZE) is not waited for: its first page answers
    const big = (st.estimate ?? 0) > BIG_SOURCE;
    if (this.running && this.lastListMs < QUICK_PASS_MS && !big)
      await Promise.race([this.running, sleep(Math.max(0, until - Date.now()))]);
    await pollUntil(() => this.index.pending === 0 || this.index.pending > FEW_PENDING, until);
  }

  /** Every change from now on (null: the listing's status moved), until the returned stop is called. */
  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    this.begin();
    return () => this.listeners.delete(fn);
  }

  /** List again now (a release on this replica changed the store). */
  nudge(): void {
    if (!this.started) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    void this.tick();
  }

  /** These names changed (the store's feed, or a push this replica received): read them, not the whole source. */
  hint(names: string[], sentAt = Date.now()): void {
    if (!this.started) return;
    for (const name of names) if (!this.pending.has(name)) this.pending.set(name, sentAt);
    this.flushing ??= setTimeout(() => void this.flush(), COALESCE_MS);
  }

  /** These names were pushed to this replica (its feed, or the push route `via`): read them; the pushes are trusted. */
  pushed(names: string[], sentAt: number | undefined, via: string): void {
    this.pace.pushed(this.started ? names : [], via); // names are kept only for the checks of a watched source
    this.hint(names, sentAt);
  }

  /** Start-up: the feed opened before anyone watches (source-feed.ts). */
  prepare(): Promise<void> {
    return this.feed.open();
  }

  /** Process exit. */
  close(): Promise<void> {
    clearTimeout(this.timer);
    clearTimeout(this.settling);
    clearInterval(this.sweeper);
    return this.feed.close();
  }

  /**
   * Whether a query lists this quick source again. A store's own feed names the keys that changed, not a holder's
   * evidence read by a listing (a process, a session, a Pod, a lease's TTL): yes, pushed or not. Notifications pushed
   * to a route are about objects judged by their own bytes and write times: while they are trusted the index is as
   * fresh as a listing (a metrics scrape every 15 s would otherwise list the source 4 times a minute).
   */
  private get queryLists(): boolean {
    return this.feed.active || !this.isPushed;
  }

  private get isPushed(): boolean {
    return this.pace.mode.mode === 'pushed';
  }

  private get wanted(): boolean {
    return this.listeners.size > 0 || Date.now() - this.askedAt < ASKED_KEEPS_MS;
  }

  private begin(): void {
    if (this.started) {
      if (!this.timer && !this.running) this.schedule();
      return;
    }
    this.started = true;
    this.stopReads = onLaterReads(this.source, (read) => this.applyRead(read.views, read.dropped));
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
    // the feed is opened before the first pass, so no change falls between the two
    void this.feed
      .open()
      .catch(() => undefined)
      .then(() => this.tick());
  }

  private now(): number {
    return Date.parse(this.status.serverTime) || Date.now();
  }

  private sweep(): void {
    if (this.index.size === 0) return;
    const moved = this.index.sweep(this.now() + (Date.now() - this.status.readAt));
    this.publish(moved);
  }

  /** Bodies read after a metadata-first listing: pending rows filled in, or dropped when they were no lock. */
  private applyRead(views: LockView[], dropped: string[]): void {
    this.publish(applyBodies(this.index, views, dropped, this.now()));
  }

  private schedule(): void {
    if (this.timer || !this.wanted) return;
    // a big source is not listed back to back: at least twice as long between passes as one pass takes
    const every = this.pace.intervalMs(this.pollEvery());
    setWatchPace(this.source, this.isPushed ? 'pushed' : 'polled', every);
    this.timer = setTimeout(() => void this.tick(), Math.max(0, this.lastPassEnd + every - Date.now()));
    this.timer.unref();
    this.watchSettling();
  }

  /** A check found changes whose pushes may still come: once they are judged, the pace may be the store's again. */
  private watchSettling(): void {
    const at = this.pace.settlesAt();
    if (at === undefined || this.settling) return;
    this.settling = setTimeout(
      () => {
        this.settling = undefined;
        if (this.timer && !this.isPushed) {
          clearTimeout(this.timer);
          this.timer = undefined;
          this.schedule();
        }
      },
      Math.max(0, at - Date.now()),
    );
    this.settling.unref();
  }

  private async tick(): Promise<void> {
    // a tick not fired by the timer (the feed opened, a nudge) replaces it: two timers would list twice as often
    clearTimeout(this.timer);
    this.timer = undefined;
    this.running ??= this.pass().finally(() => (this.running = undefined));
    await this.running;
    this.schedule();
  }

  /** One listing pass, page by page into the index (watch-reads.ts). */
  private async pass(): Promise<void> {
    const started = performance.now();
    const startedAt = Date.now();
    const found: string[] = [];
    await listPass(this.source, this.index, this.status, {
      publish: (c) => {
        for (const name of changedHands(c)) found.push(name);
        this.publish(c);
      },
      progress: () => this.emitStatus(),
    });
    this.lastListMs = performance.now() - started;
    this.lastPassEnd = Date.now();
    // a failed pass proves nothing about the pushes
    if (!this.status.error) this.pace.listed(found, startedAt);
    this.emitStatus();
  }

  /** Reads the names the feed reported and publishes what changed, in one event (watch-reads.ts). */
  private async flush(): Promise<void> {
    this.flushing = undefined;
    const batch = [...this.pending];
    this.pending.clear();
    this.publish(await readNames(this.source, this.index, this.status, batch));
  }

  private publish(changes: RowChange[]): void {
    if (changes.length === 0) return;
    const change: SourceChange = { source: this.source, serverTime: this.status.serverTime, changes };
    countWatchEvent(this.source, changes.length);
    for (const fn of this.listeners) fn(change);
  }

  private emitStatus(): void {
    for (const fn of this.listeners) fn(null);
  }
}
