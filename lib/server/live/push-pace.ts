// Whether a source's pushes can be trusted, and so how often its watcher lists it (watcher.ts). A source that hears
// of its changes (a change feed, or GCS notifications pushed to /api/gcs-events) is listed only as a safety net,
// every `checkMs`, while pushes tell it everything; each such check compares what it found with what was pushed.
// A lock that came, went or changed hands with no push about it since the check before means the pushes stopped or
// lose changes: the source is polled at its store's pace until pushes arrive again and `checkMs` passes with no
// listing finding a change they did not announce. A source never pushed stays polled until its first push.
// The clock is injected: test/api/push-pace.test.ts moves it without sleeping.

import type { RowChange } from '../../lock/query/lock-index';
import type { LiveMode } from '../listing-status';

interface PushPaceOptions {
  /** The safety net's interval while pushes are trusted (LOCKBOARD_RECONCILE, 60 s). */
  checkMs: number;
  /** A change a listing found is judged this long later: its push may still be on its way (p95 ~0.3 s). */
  settleMs?: number;
  now?: () => number;
}

type PaceMode =
  | { mode: 'pushed'; via: string }
  | { mode: 'waiting' }
  /** `quietMs`: no push for a check interval or more (they stopped), else they still come but lost `missed` changes. */
  | { mode: 'polled'; missed: number; quietMs?: number };

interface Suspects {
  names: string[];
  /** Pushes about a name since this time announced its change (the check before this one started). */
  since: number;
  at: number;
  /** When they are judged: at once when nothing at all was pushed for a check interval (no push is on its way). */
  due: number;
}

export class PushPace {
  private readonly now: () => number;
  private readonly settleMs: number;
  private lastPush: number | undefined;
  private via = '';
  private readonly pushAt = new Map<string, number>();
  private suspects: Suspects[] = [];
  private missedAt: number | undefined;
  private missed = 0;
  private previousStart: number | undefined;
  private excused = false;

  constructor(private readonly o: PushPaceOptions) {
    this.now = o.now ?? Date.now;
    this.settleMs = o.settleMs ?? 1_000;
  }

  get checkMs(): number {
    return this.o.checkMs;
  }

  /** These names were pushed (a feed's message, a notification to the push route). */
  pushed(names: string[], via: string): void {
    const at = this.now();
    this.lastPush = at;
    this.via = via;
    for (const name of names) this.pushAt.set(name, at);
  }

  /** A change feed is open: trusted from now, as if it had just pushed (a quiet store pushes nothing). */
  opened(via: string): void {
    this.pushed([], via);
  }

  /** The feed said it may have lost changes (a reconnect): the next listing's findings are not held against it. */
  gap(): void {
    this.excused = true;
  }

  /**
   * A whole listing pass that began at `startedAt` found these locks new, gone or held anew (not a refresh: feeds
   * may leave refreshes out). The first pass only sets the baseline.
   */
  listed(changed: string[], startedAt: number): void {
    const since = this.previousStart;
    this.previousStart = startedAt;
    const last = this.lastPush;
    const judged = since !== undefined && !this.excused && last !== undefined;
    this.excused = false;
    const now = this.now();
    if (judged && changed.length > 0) {
      const silent = now - last >= this.o.checkMs;
      this.suspects.push({ names: changed, since, at: now, due: silent ? now : now + this.settleMs });
    }
    this.settle();
    this.forget();
  }

  /** When the changes found by the last listing are judged (schedule a look then), if any wait. */
  settlesAt(): number | undefined {
    return this.suspects.length ? Math.min(...this.suspects.map((s) => s.due)) : undefined;
  }

  get mode(): PaceMode {
    this.settle();
    const now = this.now();
    if (this.lastPush === undefined) return { mode: 'waiting' };
    if (this.missedAt !== undefined) {
      const cleared = this.lastPush > this.missedAt && now - this.missedAt >= this.o.checkMs;
      if (!cleared) {
        const quiet = now - this.lastPush >= this.o.checkMs ? { quietMs: now - this.lastPush } : {};
        return { mode: 'polled', missed: this.missed, ...quiet };
      }
      this.missedAt = undefined;
      this.missed = 0;
    }
    return { mode: 'pushed', via: this.via };
  }

  /** How long until the next listing: the safety net while pushed, else the store's pace. */
  intervalMs(storePaceMs: number): number {
    return this.mode.mode === 'pushed' ? this.o.checkMs : storePaceMs;
  }

  /** Judges the changes whose pushes had time to arrive. */
  private settle(): void {
    const now = this.now();
    const due = this.suspects.filter((s) => s.due <= now);
    if (due.length === 0) return;
    this.suspects = this.suspects.filter((s) => s.due > now);
    for (const s of due) {
      const unannounced = s.names.filter((n) => (this.pushAt.get(n) ?? -Infinity) < s.since).length;
      if (unannounced > 0) {
        this.missedAt = s.at;
        this.missed = unannounced;
      }
    }
  }

  /** Pushes from before the last listing began, which no judgment to come asks about (the map holds an interval's names). */
  private forget(): void {
    const keepFrom = Math.min(...this.suspects.map((s) => s.since), this.previousStart ?? Infinity);
    for (const [name, at] of this.pushAt) if (at < keepFrom) this.pushAt.delete(name);
  }
}

/** The pace as a source's state says it (`takesPushes`: the store has a push route, so "none yet" is worth saying). */
export function liveModeOf(mode: PaceMode, checkMs: number, pollMs: number, takesPushes: boolean): LiveMode {
  if (mode.mode === 'pushed') return { push: mode.via, checkMs };
  if (mode.mode === 'waiting') return takesPushes ? { pollMs, pushes: 'none yet' } : { pollMs };
  const quiet = mode.quietMs === undefined ? {} : { quietMs: mode.quietMs };
  return { pollMs, pushes: { missed: mode.missed, ...quiet } };
}

/**
 * The locks of a listing's changes that a push would have announced: new, gone, or held anew (another generation).
 * Not a refresh, a health or verdict moving with time: a feed may leave refreshes out (GCS creates and deletes only).
 */
export function changedHands(changes: RowChange[]): string[] {
  const out: string[] = [];
  for (const { before, after } of changes) {
    if (!before || !after || before.generation !== after.generation) out.push((after ?? before)!.name);
  }
  return out;
}
