// The selection's counts and each source's listing progress as one caller may see them: over every lock from the
// indexes' running counts, or within a scope counted over the rows inside it (one pass), `listed` then being the
// source's locks in scope (never the keys walked, an estimate or the skipped objects: those count every lock).
import 'server-only';
import { VERDICTS, zeroVerdicts, type VerdictCounts } from '@/lib/lock/verdict/verdict';
import { HEALTHS } from '@/lib/console/health';
import { zeroCounts, type HealthCounts, type Row } from '../lock/query/lock-index';
import { runQuery } from '../lock/query/query';
import { addressBase } from '../lock/address';
import { stateForScope, type SourceState } from './listing-status';
import { watcherFor } from './live/watch';
import type { Source } from './sources';
import { namesMatcher } from './auth/glob';
import { isEveryLock, type Scope } from './auth/access';

/** A source's index as the query reads it. */
function indexedOf(s: Source) {
  const index = watcherFor(s).index;
  return { id: s.id, rows: index.rows.values(), counts: index.counts, verdicts: index.verdicts, size: index.size };
}

/**
 * The rows of `source` inside `scope`, as the query tests them, by name (the scope's globs cut to this source):
 * undefined where every row is (the index's own counts serve).
 */
export function withinOf(source: Source, scope: Scope): ((row: Row) => boolean) | undefined {
  if (isEveryLock(scope)) return undefined;
  const names = namesMatcher(scope.globs, `${addressBase(source)}/`);
  return names && ((row) => names(row.name));
}

interface Tally {
  total: number;
  counts: HealthCounts;
  verdicts: VerdictCounts;
}

/** One source's locks within `scope`, by health and verdict. */
function tallyOf(s: Source, scope: Scope): Tally {
  const within = withinOf(s, scope);
  if (!within) {
    const index = watcherFor(s).index;
    return { total: index.size, counts: { ...index.counts }, verdicts: { ...index.verdicts } };
  }
  const { total, counts, verdicts } = runQuery([{ ...indexedOf(s), within }], { sort: 'name', order: 'asc', limit: 0 });
  return { total, counts, verdicts };
}

/** A source's listing as a reader of `scope` sees it: a scoped reader's `listed` is its locks in scope. */
function stateOf(s: Source, scope: Scope, inScope: number): SourceState {
  const state = watcherFor(s).state(s.id);
  if (isEveryLock(scope)) return state;
  const seen: SourceState = { ...stateForScope(state, true), listed: inScope, skipped: 0 };
  delete seen.estimate;
  return seen;
}

/**
 * The sources as one query pass reads them within `scope`, each row in scope counted as the query tests it (once a
 * row), and the sources' states from those counts once the pass is done: a scoped window costs one pass, not two.
 */
export function scopedPass(sources: Source[], scope: Scope) {
  const inScope = new Map<string, number>();
  const indexed = sources.map((s) => {
    const index = indexedOf(s);
    const within = withinOf(s, scope);
    if (!within) inScope.set(s.id, index.size);
    else inScope.set(s.id, 0);
    const counted = within && ((row: Row) => within(row) && (inScope.set(s.id, inScope.get(s.id)! + 1), true));
    return { ...index, within: counted };
  });
  return { indexed, states: () => sources.map((s) => stateOf(s, scope, inScope.get(s.id)!)) };
}

/** The selection's counts (by health and by verdict) and listing progress within `scope`. */
export function statusOf(selection: { sources: Source[] }, scope: Scope) {
  const counts = zeroCounts();
  const verdicts = zeroVerdicts();
  let total = 0;
  const states = selection.sources.map((s) => {
    const t = tallyOf(s, scope);
    total += t.total;
    for (const h of HEALTHS) counts[h] += t.counts[h];
    for (const v of VERDICTS) verdicts[v] += t.verdicts[v];
    return stateOf(s, scope, t.total);
  });
  const complete = states.every((st) => st.complete);
  return {
    serverTime: latest(states),
    total,
    counts,
    verdicts,
    skipped: states.reduce((n, st) => n + st.skipped, 0),
    complete,
    sources: states,
  };
}

/** The latest store time among the states. */
export const latest = (states: SourceState[]) => states.reduce((t, st) => (st.serverTime > t ? st.serverTime : t), '');

/** The sources' latest store time (a tick's), counting nothing. */
export const serverTimeOf = (sources: Source[]) => latest(sources.map((s) => watcherFor(s).state(s.id)));
