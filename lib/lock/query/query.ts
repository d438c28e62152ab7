// One query over the indexes of the sources selected: filter, sort and page on the server (docs/live-index.md). A
// window of at most `limit` rows after a keyset cursor (sort value, source, name), the number matched, counts by health
// over the whole selection, and a cursor for the next window. Cost: one pass over the rows, keeping only the best
// `limit`.
import { LOCK_HEALTHS as HEALTHS, type LockHealth } from '../types';

import { zeroCounts, type HealthCounts, type Row } from './lock-index';
import { VERDICTS, zeroVerdicts, type Verdict, type VerdictCounts } from '../verdict/verdict';

export const SORT_KEYS = ['name', 'source', 'owner', 'health', 'held', 'refresh', 'expires', 'generation', 'format'];
export type IndexSortKey =
  'name' | 'source' | 'owner' | 'health' | 'held' | 'refresh' | 'expires' | 'generation' | 'format';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1_000;

export interface LockQuery {
  q?: string;
  health?: LockHealth;
  verdict?: Verdict;
  format?: string;
  /** The ids `format` means (lib/lock/stores formatsMeant: an id from before ids were unique matches its heirs too). */
  formatIds?: readonly string[];
  sort: IndexSortKey;
  order: 'asc' | 'desc';
  cursor?: string;
  limit: number;
}

interface IndexedSource {
  /** The source's id (tie-break of the sort, part of the cursor). */
  id: string;
  rows: Iterable<Row>;
  counts: HealthCounts;
  /** Counts by verdict; absent where the source keeps none (counted as nothing). */
  verdicts?: VerdictCounts;
  size: number;
  /**
   * The caller's scope over this source's rows (their grants): rows outside it are not there at all, and `total` and
   * `counts` are counted over the rows inside it (one more test per row of the pass) instead of the index's counts.
   */
  within?: (row: Row) => boolean;
}

export interface QueryResult {
  rows: { source: string; row: Row }[];
  matched: number;
  total: number;
  counts: HealthCounts;
  /** Counts by verdict over the whole selection, like `counts`. */
  verdicts: VerdictCounts;
  /** The cursor of the next window; absent when this window ends the matched set. */
  nextCursor?: string;
}

type Key = string | number;

const SORT_VALUE: Record<IndexSortKey, (r: Row, source: string) => Key> = {
  name: (r) => r.name,
  source: (_, s) => s,
  owner: (r) => r.identity ?? '',
  health: (r) => HEALTHS.indexOf(r.health),
  held: (r) => -(r.created || 0),
  refresh: (r) => -(r.updated || 0),
  expires: (r) => (Number.isNaN(r.expires) ? Number.MAX_SAFE_INTEGER : r.expires),
  generation: (r) => r.version ?? r.generation,
  format: (r) => r.format,
};

/** A text filter: case-insensitive, over name, owner, purpose and host (an exact name is one more match). */
export function matcher(q: LockQuery): (r: Row) => boolean {
  const text = q.q?.trim().toLowerCase();
  return (r) =>
    (!q.health || r.health === q.health) &&
    (!q.verdict || r.judged?.verdict === q.verdict) &&
    (!q.format || (q.formatIds ?? [q.format]).includes(r.format)) &&
    (!text || r.hay.includes(text));
}

interface Entry {
  key: Key;
  source: string;
  row: Row;
}

function compare(a: Entry, b: Entry): number {
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  if (a.source !== b.source) return a.source < b.source ? -1 : 1;
  return a.row.name < b.row.name ? -1 : a.row.name > b.row.name ? 1 : 0;
}

function encodeCursor(e: { key: Key; source: string; name: string }): string {
  return Buffer.from(JSON.stringify([e.key, e.source, e.name])).toString('base64url');
}

/** The position a cursor names, or undefined for a cursor that is not one of ours (a usage error for the caller). */
export function decodeCursor(cursor: string): { key: Key; source: string; name: string } | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 3) return undefined;
    const [key, source, name] = v as unknown[];
    if ((typeof key !== 'string' && typeof key !== 'number') || typeof source !== 'string' || typeof name !== 'string')
      return undefined;
    return { key, source, name };
  } catch {
    return undefined;
  }
}

export function runQuery(sources: IndexedSource[], q: LockQuery): QueryResult {
  const value = SORT_VALUE[q.sort];
  const sign = q.order === 'desc' ? -1 : 1;
  const cmp = (a: Entry, b: Entry) => sign * compare(a, b);
  const after = q.cursor ? decodeCursor(q.cursor) : undefined;
  const afterEntry = after && ({ key: after.key, source: after.source, row: { name: after.name } } as Entry);
  const match = matcher(q);
  const counts = zeroCounts();
  const verdicts = zeroVerdicts();
  let total = 0;
  let matched = 0;
  let best: Entry[] = [];
  const keep = q.limit + 1; // one more tells whether a next window exists
  // The worst row kept so far once `best` was cut: a row that sorts after it is passed over without an allocation
  let worst: Entry | undefined;
  const probe = { key: '' as Key, source: '', row: undefined as unknown as Row };
  for (const s of sources) {
    const within = s.within;
    if (!within) {
      total += s.size;
      for (const h of HEALTHS) counts[h] += s.counts[h];
      for (const v of VERDICTS) verdicts[v] += s.verdicts?.[v] ?? 0;
    }
    for (const row of s.rows) {
      if (within) {
        if (!within(row)) continue;
        total++;
        counts[row.health]++;
        if (row.judged) verdicts[row.judged.verdict]++;
      }
      if (!match(row)) continue;
      matched++;
      probe.key = value(row, s.id);
      probe.source = s.id;
      probe.row = row;
      if (afterEntry && cmp(probe, afterEntry) <= 0) continue;
      if (worst && cmp(probe, worst) >= 0) continue;
      best.push({ key: probe.key, source: s.id, row });
      if (best.length >= keep * 4) {
        best = best.sort(cmp).slice(0, keep);
        worst = best[best.length - 1];
      }
    }
  }
  best.sort(cmp);
  const window = best.slice(0, q.limit);
  const last = window[window.length - 1];
  return {
    rows: window.map((e) => ({ source: e.source, row: e.row })),
    matched,
    total,
    counts,
    verdicts,
    ...(best.length > q.limit && last ? { nextCursor: encodeCursor({ ...last, name: last.row.name }) } : {}),
  };
}
