// One watcher per source per console process, shared by every open browser: it holds the current listing and
// publishes what changed. Where the store has a change feed (LockStore.changes) it reads only the names the feed
// reports and reconciles with a full listing at a slow interval (LOCKBOARD_RECONCILE, 60s) and whenever the feed
// says it missed something; where it has none it lists at its store's pace (the definition's watchIntervalMs). It
// works only while someone watches, and reads at once after a release on this replica or a push about the source.
import 'server-only';
import { isListedLock, type LockView } from '@/lib/lock/store';
import { definitionByKind } from '@/lib/lock/stores';
import { mapLimit } from '@/lib/lock/map-limit';
import { env } from './env';
import { changed } from './watch-diff';
import { countFeedLag, countWatchEvent } from './metrics';
import { SourceFeed } from './source-feed';
import { cachedPage, onLaterReads, storeFor } from './stores';
import type { Source } from './sources';

export interface SourceChange {
  source: string;
  serverTime: string;
  /** Locks new or changed (another version, another health). */
  upsert: LockView[];
  /** Names no longer there. */
  remove: string[];
}

type Listener = (change: SourceChange) => void;

/** Changes reported within this window are read together: a burst of refreshes is one event, not a flood. */
const COALESCE_MS = 100;

export class SourceWatcher {
  private locks = new Map<string, LockView>();
  private skipped = 0;
  private listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private serverTime = '';
  private ready: Promise<void> | undefined;
  private readonly feed: SourceFeed;
  private pending = new Map<string, number>();
  private flushing: NodeJS.Timeout | undefined;
  private stopReads: (() => void) | undefined;
  private lastListMs = 0;

  constructor(private readonly source: Source) {
    this.feed = new SourceFeed(source, {
      changed: (names, sentAt) => this.hint(names, sentAt),
      missed: () => this.nudge(),
    });
  }

  /** The current listing (read once if nobody was watching), then every change until the returned stop is called. */
  async subscribe(fn: Listener): Promise<{ locks: LockView[]; skipped: number; serverTime: string; stop: () => void }> {
    this.ready ??= this.start().catch((err: unknown) => {
      this.ready = undefined; // unreachable now: the next subscriber tries again
      throw err;
    });
    await this.ready;
    // the snapshot and the listener are taken in the same turn: the next change is relative to this snapshot
    this.listeners.add(fn);
    this.schedule();
    const snapshot = { locks: [...this.locks.values()], skipped: this.skipped, serverTime: this.serverTime };
    return { ...snapshot, stop: () => this.unsubscribe(fn) };
  }

  /** The current listing, if someone is watching (a reset after a slow client fell behind). */
  current(): { locks: LockView[]; skipped: number; serverTime: string } {
    return { locks: [...this.locks.values()], skipped: this.skipped, serverTime: this.serverTime };
  }

  /** List again now (a release on this replica changed the store). */
  nudge(): void {
    if (this.listeners.size === 0) return;
    clearTimeout(this.timer);
    void this.tick();
  }

  /** These names changed (the store's feed, or a push this replica received): read them, not the whole source. */
  hint(names: string[], sentAt = Date.now()): void {
    if (this.listeners.size === 0) return;
    for (const name of names) if (!this.pending.has(name)) this.pending.set(name, sentAt);
    this.flushing ??= setTimeout(() => void this.flush(), COALESCE_MS);
  }

  /** Start-up: the feed opened before anyone watches (source-feed.ts). */
  prepare(): Promise<void> {
    return this.feed.open();
  }

  /** Process exit. */
  close(): Promise<void> {
    return this.feed.close();
  }

  /** The feed is opened before the first listing, so no change falls between the two. */
  private async start(): Promise<void> {
    this.stopReads ??= onLaterReads(this.source, (read) => this.applyRead(read.views, read.dropped));
    await this.feed.open();
    await this.poll();
  }

  /** Bodies read after a metadata-first listing: pending rows filled in, or dropped when they were no lock. */
  private applyRead(views: LockView[], dropped: string[]): void {
    if (this.listeners.size === 0) return;
    const upsert = views.filter((v) => changed(this.locks.get(v.name), v));
    for (const v of views) this.locks.set(v.name, v);
    const remove = dropped.filter((name) => this.locks.delete(name));
    this.publish(upsert, remove);
  }

  private unsubscribe(fn: Listener): void {
    if (!this.listeners.delete(fn)) return;
    if (this.listeners.size > 0) return;
    clearTimeout(this.timer);
    clearTimeout(this.flushing);
    this.timer = this.flushing = undefined;
    this.pending.clear();
    this.ready = undefined; // the next watcher starts from a fresh listing
    this.stopReads?.();
    this.stopReads = undefined;
  }

  private schedule(): void {
    if (this.timer || this.listeners.size === 0) return;
    const pace = definitionByKind(this.source.kind).watchIntervalMs;
    // a big source is not listed back to back: at least twice as long between listings as one listing takes
    const every = this.feed.active ? (env().LOCKBOARD_RECONCILE ?? 60_000) : Math.max(pace, 2 * this.lastListMs);
    this.timer = setTimeout(() => void this.tick(), every);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    await this.poll().catch(() => undefined); // an unreachable store: the last listing stays, the next tick retries
    this.schedule();
  }

  private poll(): Promise<void> {
    this.running ??= this.listAndDiff().finally(() => (this.running = undefined));
    return this.running;
  }

  private async listAndDiff(): Promise<void> {
    const started = performance.now();
    const next = new Map<string, LockView>();
    let token: string | undefined;
    let skipped = 0;
    do {
      const page = await cachedPage(this.source, token, { progressive: true });
      for (const lock of page.locks) next.set(lock.name, lock);
      skipped += page.skipped;
      this.serverTime = page.serverTime;
      token = page.nextPageToken;
    } while (token);
    this.skipped = skipped;
    this.lastListMs = performance.now() - started;
    const upsert = [...next.values()].filter((l) => changed(this.locks.get(l.name), l));
    const remove = [...this.locks.keys()].filter((name) => !next.has(name));
    this.locks = next;
    this.publish(upsert, remove);
  }

  /** Reads the names the feed reported (eight at a time) and publishes what changed, in one event. */
  private async flush(): Promise<void> {
    this.flushing = undefined;
    const batch = [...this.pending];
    this.pending.clear();
    const store = await storeFor(this.source);
    const read = await mapLimit(batch, 8, async ([name, sentAt]) => {
      const view = await store.inspect(name).catch(() => undefined); // unreadable now: the reconcile will see it
      countFeedLag(this.source, (Date.now() - sentAt) / 1000);
      return { name, view };
    });
    const upsert: LockView[] = [];
    const remove: string[] = [];
    for (const { name, view } of read) {
      if (view === undefined) continue;
      if (view && isListedLock(view)) {
        if (changed(this.locks.get(name), view)) upsert.push(view);
        this.locks.set(name, view);
      } else if (this.locks.delete(name)) remove.push(name);
    }
    this.serverTime = new Date(store.now()).toISOString();
    this.publish(upsert, remove);
  }

  private publish(upsert: LockView[], remove: string[]): void {
    if (upsert.length === 0 && remove.length === 0) return;
    const change = { source: this.source.id, serverTime: this.serverTime, upsert, remove };
    countWatchEvent(this.source, upsert.length + remove.length);
    for (const fn of this.listeners) fn(change);
  }
}
