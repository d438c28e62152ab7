// One source's index of locks on the console server (docs/live-index.md: the server holds the set, the browser a
// window). Only what filters, sorts, counts and paints a row stays in memory, as a compact Row (row.ts); a lock's
// details, metadata and sensitive fields are read again on demand (the lock page, the release dialog). Counts by health
// are kept as rows change, and health that moves with time alone (a TTL running out, a refresh overdue) is moved by
// `sweep` from a heap of each row's next transition, never by judging every row again.
import { LOCK_HEALTHS as HEALTHS, type LockHealth } from '../types';
import type { LockView } from '../store';

import { TransitionHeap } from './heap';
import { zeroVerdicts } from '../verdict/verdict';
import { compact, healthAt, nextTransition, num, Row } from './row';
import { internVerdict, type IndexVerdict } from './verdict-intern';

export { Row } from './row';
export type { IndexRow } from './row';

export type HealthCounts = Record<LockHealth, number>;

export const zeroCounts = (): HealthCounts => Object.fromEntries(HEALTHS.map((h) => [h, 0])) as HealthCounts;

export interface RowChange {
  before?: Row;
  after?: Row;
}

/** A sentence with its figures masked: an age or a countdown ("wrote it 3 s ago") written as a number moves on every read. */
const shapeOf = (sentence: string | undefined) => sentence?.replace(/\d+/g, '#');

/**
 * What a browser shows changed: another version, health, verdict or what it says (figures moving alone are not a
 * change: they would push every judged row on every pass), expiry (over a second: a TTL read wobbles), read state.
 */
function rowChanged(a: Row, b: Row): boolean {
  if (a.version !== b.version || a.health !== b.health || a.pending !== b.pending) return true;
  if (a.judged?.verdict !== b.judged?.verdict) return true;
  if (a.judged !== b.judged && shapeOf(a.judged?.sentence) !== shapeOf(b.judged?.sentence)) return true;
  // a waiter joining or leaving the queue behind an unchanged holder
  if ((a.waiters?.length ?? 0) !== (b.waiters?.length ?? 0)) return true;
  if (Number.isNaN(a.expires) !== Number.isNaN(b.expires)) return true;
  return Math.abs(a.expires - b.expires) > 1_000;
}

const probe: { -readonly [K in keyof Parameters<typeof healthAt>[0]]: Parameters<typeof healthAt>[0][K] } = {
  health: 'healthy',
  expires: Number.NaN,
  afterExpiry: undefined,
  refreshIntervalMs: undefined,
  updated: Number.NaN,
};

/**
 * `rowChanged` of `row` and the row `v` would make, without making it: most locks of a pass are as they were. The
 * same words (figures that are marks aside, verdict/figures.ts) are unchanged: the row takes the new read's copy.
 */
function unchanged(row: Row, v: LockView, judged: IndexVerdict | undefined, now: number): boolean {
  if (row.version !== v.version || row.pending !== (v.pending === true)) return false;
  if (row.judged?.verdict !== judged?.verdict || row.judged?.sentence !== judged?.sentence) return false;
  if ((row.waiters?.length ?? 0) !== (v.waiters?.length ?? 0)) return false;
  const expires = num(v.expiresAt);
  if (Number.isNaN(row.expires) !== Number.isNaN(expires) || Math.abs(row.expires - expires) > 1_000) return false;
  probe.health = v.health;
  probe.expires = expires;
  probe.afterExpiry = v.afterExpiry;
  probe.refreshIntervalMs = v.refreshIntervalMs;
  probe.updated = num(v.updatedAt);
  return healthAt(probe, now) === row.health;
}

/**
 * The expiry a row keeps: a TTL read wobbles by the time between the clock's read and the TTL's, so within a second
 * of the last it stays as it was (no change to show, no new transition to schedule).
 */
const steady = (before: Row | undefined, expires: number) =>
  before && Math.abs(before.expires - expires) <= 1_000 ? before.expires : expires;

export class LockIndex {
  readonly rows = new Map<string, Row>();
  readonly counts = zeroCounts();
  /** Counts by verdict (judged locks only). */
  readonly verdicts = zeroVerdicts();
  /** Rows listed before their body was read (metadata first): filters on owner see them once read. */
  pending = 0;
  /**
   * Each row's next transition, by name: an entry outlives the row it was pushed for (a row replaced keeps its entry
   * when its time is the same), and never keeps a replaced row alive.
   */
  private readonly heap = new TransitionHeap<string>();
  /** The listing pass under way: a row not stamped by a whole pass is gone. */
  private pass = 0;
  /** Names by pair key (one lock kept in two stores): few rows have one, so the map stays small. */
  private readonly pairs = new Map<string, Set<string>>();

  get size(): number {
    return this.rows.size;
  }

  /** Entries in the heap of time-driven transitions (bounded by about twice the rows). */
  get transitions(): number {
    return this.heap.size;
  }

  /** A new listing pass starts: rows it does not see are removed by `endPass`. */
  beginPass(): void {
    this.pass++;
  }

  /** Sets `view` (health judged at `now`, the store's clock); the change, or undefined when nothing shown moved. */
  upsert(view: LockView, now: number): RowChange | undefined {
    const seen = this.rows.get(view.name);
    const judged = internVerdict(view, now);
    if (seen && unchanged(seen, view, judged, now)) {
      seen.pass = this.pass;
      seen.judged = judged; // the same kind and words: its evidence and figures as this pass read them
      return undefined;
    }
    let row = compact(view, { judged, expires: steady(seen, num(view.expiresAt)), before: seen });
    const health = healthAt(row, now);
    if (health !== row.health) row = row.withHealth(health);
    row.pass = this.pass;
    const before = this.rows.get(row.name);
    const shown = !before || rowChanged(before, row);
    if (before && !shown && before.judged?.sentence === row.judged?.sentence) {
      before.pass = this.pass;
      before.judged = row.judged;
      return undefined;
    }
    // past here a row is replaced; when only its sentence's figures moved, reads see them but nothing is pushed
    if (before) this.count(before, -1);
    this.count(row, 1);
    this.rows.set(row.name, row);
    if (before?.pairKey !== row.pairKey) {
      this.unpair(before);
      if (row.pairKey) this.pairs.set(row.pairKey, (this.pairs.get(row.pairKey) ?? new Set()).add(row.name));
    }
    const at = nextTransition(row, now);
    if (at !== undefined && (!before || at !== nextTransition(before, now))) this.heap.push(at, row.name);
    // entries no row is due at any more: dropped once they outnumber the rows (amortised: one rebuild per n changes)
    if (this.heap.size > 2 * this.rows.size + 1_024) this.heap.retain((name, t) => this.dueAt(name, t));
    return shown ? { before, after: row } : undefined;
  }

  remove(name: string): RowChange | undefined {
    const before = this.rows.get(name);
    if (!before) return undefined;
    this.rows.delete(name);
    this.count(before, -1);
    this.unpair(before);
    return { before };
  }

  /** The names of rows with this pair key (the same lock kept in another store is found by it). */
  pairedWith(pairKey: string): string[] {
    return [...(this.pairs.get(pairKey) ?? [])];
  }

  private unpair(row: Row | undefined): void {
    if (!row?.pairKey) return;
    const names = this.pairs.get(row.pairKey);
    names?.delete(row.name);
    if (names?.size === 0) this.pairs.delete(row.pairKey);
  }

  /** The pass is complete: every row it did not see is removed. */
  endPass(): RowChange[] {
    const gone: RowChange[] = [];
    for (const [name, row] of this.rows) {
      if (row.pass === this.pass) continue;
      const change = this.remove(name);
      if (change) gone.push(change);
    }
    return gone;
  }

  /** Rows whose health moved with time by `now` (an expiry passed, a refresh overdue): moved, counted, returned. */
  sweep(now: number): RowChange[] {
    const moved: RowChange[] = [];
    for (const name of this.heap.popDue(now)) {
      const row = this.rows.get(name);
      if (!row) continue; // removed since
      const health = healthAt(row, now);
      if (health === row.health) continue;
      const after = row.withHealth(health);
      this.count(row, -1);
      this.count(after, 1);
      this.rows.set(row.name, after);
      const at = nextTransition(after, now);
      if (at !== undefined) this.heap.push(at, name);
      moved.push({ before: row, after });
    }
    return moved;
  }

  /** Whether the row named is still due to change at `at` (its expiry or its refresh's overdue time). */
  private dueAt(name: string, at: number): boolean {
    const r = this.rows.get(name);
    return r !== undefined && (at === r.expires || at === r.updated + 1.5 * (r.refreshIntervalMs ?? Number.NaN));
  }

  private count(row: Row, by: 1 | -1): void {
    this.counts[row.health] += by;
    if (row.judged) this.verdicts[row.judged.verdict] += by;
    if (row.pending) this.pending += by;
  }
}
