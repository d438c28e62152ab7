// One source's index of locks on the console server (facts-scale.md: the server holds the set, the browser a window).
// Only what filters, sorts, counts and paints a row stays in memory (a lock's details, metadata and sensitive fields
// are read again on demand, from the lock page and the release dialog). Counts by health are kept as rows change,
// and health that moves with time alone (a TTL running out, a refresh overdue) is moved by `sweep` from a heap of
// the next transition of each row, never by judging every row again.
import { HEALTHS, liveHealth } from '@/lib/health';
import type { LockView } from '@/lib/lock/store';
import type { LockHealth } from '@/lib/lock/types';
import { TransitionHeap } from './heap';

/** A row as the index keeps it and a window shows it: a LockView without its per-lock details. */
export type IndexRow = Omit<LockView, 'sensitive'> & { sensitive?: undefined };

/** What queries read of a row, computed once when it is set (never sent: a symbol key is not serialised). */
export const KEYS = Symbol('index keys');
export interface RowKeys {
  /** name, owner, purpose and host, lower-cased, for the text filter. */
  hay: string;
  created: number;
  updated: number;
  expires: number;
}

const FAR = Number.MAX_SAFE_INTEGER;

export function keysOf(row: IndexRow): RowKeys {
  const cached = (row as { [KEYS]?: RowKeys })[KEYS];
  if (cached) return cached;
  const keys: RowKeys = {
    hay: [row.name, row.identity ?? '', row.purpose ?? '', row.host ?? ''].join('\u0000').toLowerCase(),
    created: Date.parse(row.createdAt) || 0,
    updated: Date.parse(row.updatedAt) || 0,
    expires: row.expiresAt ? Date.parse(row.expiresAt) || FAR : FAR,
  };
  Object.defineProperty(row, KEYS, { value: keys, enumerable: false });
  return keys;
}

const NO_DETAILS: [string, string][] = [];
const NO_METADATA: Record<string, string> = {};

/** The row kept for a view: the same fields, the heavy ones shared empty values (the lock page reads them again). */
export function slim(view: LockView): IndexRow {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- dropped on purpose: shown to operators on demand
  const { sensitive, details, metadata, ...rest } = view;
  return { ...rest, details: NO_DETAILS, metadata: NO_METADATA };
}

export type HealthCounts = Record<LockHealth, number>;

export const zeroCounts = (): HealthCounts => Object.fromEntries(HEALTHS.map((h) => [h, 0])) as HealthCounts;

/** The next time `row`'s health changes with no write (expiry, or a refresh overdue), or undefined. */
function nextTransition(row: IndexRow, now: number): number | undefined {
  const h = row.health;
  if (h !== 'healthy' && h !== 'overdue' && h !== 'long-held') return undefined;
  const times: number[] = [];
  if (row.expiresAt && row.afterExpiry) times.push(Date.parse(row.expiresAt));
  if (h === 'healthy' && row.refreshIntervalMs) times.push(Date.parse(row.updatedAt) + 1.5 * row.refreshIntervalMs);
  const next = times.filter((t) => Number.isFinite(t) && t > now);
  return next.length ? Math.min(...next) : undefined;
}

export interface RowChange {
  before?: IndexRow;
  after?: IndexRow;
}

export class LockIndex {
  readonly rows = new Map<string, IndexRow>();
  readonly counts = zeroCounts();
  /** Rows listed before their body was read (metadata first): filters on owner see them once read. */
  pending = 0;
  private readonly heap = new TransitionHeap<IndexRow>();
  /** Listing pass stamps: a row not seen by a whole pass is gone. */
  private seenIn = new Map<string, number>();
  private pass = 0;

  get size(): number {
    return this.rows.size;
  }

  /** A new listing pass starts: rows it does not see are removed by `endPass`. */
  beginPass(): void {
    this.pass++;
  }

  /** Sets `view` (health judged at `now`, the store's clock); the change, or undefined when nothing shown moved. */
  upsert(view: LockView, now: number, differs: (a: IndexRow, b: IndexRow) => boolean): RowChange | undefined {
    const row = slim(view);
    const judged = liveHealth(row, now);
    if (judged !== row.health) row.health = judged;
    this.seenIn.set(row.name, this.pass);
    const before = this.rows.get(row.name);
    if (before && !differs(before, row)) return undefined;
    if (before) this.count(before, -1);
    this.count(row, 1);
    this.rows.set(row.name, row);
    keysOf(row);
    const at = nextTransition(row, now);
    if (at !== undefined) this.heap.push(at, row);
    return { before, after: row };
  }

  /** Marks `name` as seen by this pass (a page that listed it unchanged). */
  touch(name: string): void {
    if (this.rows.has(name)) this.seenIn.set(name, this.pass);
  }

  remove(name: string): RowChange | undefined {
    const before = this.rows.get(name);
    if (!before) return undefined;
    this.rows.delete(name);
    this.seenIn.delete(name);
    this.count(before, -1);
    return { before };
  }

  private count(row: IndexRow, by: 1 | -1): void {
    this.counts[row.health] += by;
    if (row.pending) this.pending += by;
  }

  /** The pass is complete: every row it did not see is removed. */
  endPass(): RowChange[] {
    const gone: RowChange[] = [];
    for (const [name, pass] of this.seenIn) {
      if (pass === this.pass) continue;
      const change = this.remove(name);
      if (change) gone.push(change);
    }
    return gone;
  }

  /** Rows whose health moved with time by `now` (an expiry passed, a refresh overdue): moved, counted, returned. */
  sweep(now: number): RowChange[] {
    const moved: RowChange[] = [];
    for (const row of this.heap.popDue(now)) {
      if (this.rows.get(row.name) !== row) continue; // replaced or removed since: that row has its own entry
      const health = liveHealth(row, now);
      if (health === row.health) continue;
      const after: IndexRow = { ...row, health };
      Object.defineProperty(after, KEYS, { value: keysOf(row), enumerable: false });
      this.counts[row.health]--;
      this.counts[health]++;
      this.rows.set(row.name, after);
      const at = nextTransition(after, now);
      if (at !== undefined) this.heap.push(at, after);
      moved.push({ before: row, after });
    }
    return moved;
  }
}
