// The counts beside a window, kept in step with its rows as the stream changes them: the server coalesces its counts
// (at most one `counts` event a second), so without this a released lock left "All 1" above an empty list for up to a
// second. Exact for the rows of the window: a row gone with no filter on left the selection; one changed in place
// moves between healths and verdicts. Under a filter a row leaving the window may only have stopped matching, so
// only `matched` moves and the server's next counts say the rest.
import type { LocksData } from '@/lib/console/queries';
import type { LockInfo } from '@/lib/lock/types';

const keyOf = (l: LockInfo) => `${l.bucket}\u0000${l.name}`;

/** `next` (the window after a change) with its counts moved by what the change did to the window's rows. */
export function withCountsOf(old: LocksData, next: LocksData, filtered: boolean): LocksData {
  const before = new Map(old.locks.map((l) => [keyOf(l), l]));
  const after = new Map(next.locks.map((l) => [keyOf(l), l]));
  const out = { ...next, counts: { ...next.counts }, ...(next.verdicts ? { verdicts: { ...next.verdicts } } : {}) };
  const move = (l: LockInfo, by: 1 | -1) => {
    out.total += by;
    out.counts[l.health] = Math.max(0, (out.counts[l.health] ?? 0) + by);
    if (l.verdict && out.verdicts) out.verdicts[l.verdict] = Math.max(0, (out.verdicts[l.verdict] ?? 0) + by);
  };
  for (const [k, l] of before) {
    if (after.has(k)) continue;
    out.matched = Math.max(0, out.matched - 1);
    if (!filtered) move(l, -1);
  }
  for (const [k, l] of after) {
    const was = before.get(k);
    if (!was) {
      out.matched += 1;
      if (!filtered) move(l, 1);
    } else if (was.health !== l.health || was.verdict !== l.verdict) {
      move(was, -1);
      move(l, 1);
    }
  }
  out.total = Math.max(0, out.total);
  return out;
}
