// One watcher per source per console process, shared by every open browser: it holds the current listing and
// publishes what changed. It lists at its store's pace (the definition's watchIntervalMs) only while someone watches,
// and at once after a release on this replica.
import 'server-only';
import type { LockView } from '@/lib/lock/store';
import { definitionByKind } from '@/lib/lock/stores';
import { cachedPage, invalidateListings } from './stores';
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

class SourceWatcher {
  private locks = new Map<string, LockView>();
  private listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private serverTime = '';
  private ready: Promise<void> | undefined;

  constructor(private readonly source: Source) {}

  /** The current listing (read once if nobody was watching), then every change until the returned stop is called. */
  async subscribe(fn: Listener): Promise<{ locks: LockView[]; serverTime: string; stop: () => void }> {
    this.ready ??= this.poll().catch((err: unknown) => {
      this.ready = undefined; // unreachable now: the next subscriber tries again
      throw err;
    });
    await this.ready;
    // the snapshot and the listener are taken in the same turn: the next change is relative to this snapshot
    this.listeners.add(fn);
    this.schedule();
    return { locks: [...this.locks.values()], serverTime: this.serverTime, stop: () => this.unsubscribe(fn) };
  }

  /** List again now (a release on this replica changed the store). */
  nudge(): void {
    if (this.listeners.size === 0) return;
    clearTimeout(this.timer);
    void this.tick();
  }

  private unsubscribe(fn: Listener): void {
    if (!this.listeners.delete(fn)) return;
    if (this.listeners.size > 0) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.ready = undefined; // the next watcher starts from a fresh listing
  }

  private schedule(): void {
    if (this.timer || this.listeners.size === 0) return;
    this.timer = setTimeout(() => void this.tick(), definitionByKind(this.source.kind).watchIntervalMs);
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
    const next = new Map<string, LockView>();
    let token: string | undefined;
    do {
      const page = await cachedPage(this.source, token);
      for (const lock of page.locks) next.set(lock.name, lock);
      this.serverTime = page.serverTime;
      token = page.nextPageToken;
    } while (token);
    const upsert = [...next.values()].filter((l) => {
      const before = this.locks.get(l.name);
      return !before || before.version !== l.version || before.health !== l.health;
    });
    const remove = [...this.locks.keys()].filter((name) => !next.has(name));
    this.locks = next;
    if (upsert.length === 0 && remove.length === 0) return;
    const change = { source: this.source.id, serverTime: this.serverTime, upsert, remove };
    for (const fn of this.listeners) fn(change);
  }
}

const watchers = new Map<string, SourceWatcher>();

export function watcherFor(source: Source): SourceWatcher {
  let w = watchers.get(source.id);
  if (!w) watchers.set(source.id, (w = new SourceWatcher(source)));
  return w;
}

/** After a mutation on this replica: drop cached listings and have every watcher of `source` list again now. */
export function changedOnThisReplica(source: Source): void {
  invalidateListings();
  watchers.get(source.id)?.nudge();
}
