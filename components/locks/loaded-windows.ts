// The windows loaded past the first, as plain data: each row shown once, the window holding a row, and the line
// under the rows.
import type { LockInfo } from '@/lib/lock/types';
import { formatCount } from '@/lib/text/format';

/** One window: the cursor it starts after, its rows, and where the next one starts. */
export interface LoadedWindow {
  cursor: string;
  locks: LockInfo[];
  nextCursor?: string;
}

const rowKey = (l: LockInfo) => `${l.bucket}\u0000${l.name}`;

/** The windows' rows in order; a window written by the stream may now hold a row the next one also holds: each row once. */
export function distinctRows(windows: LoadedWindow[]): LockInfo[] {
  const seen = new Set<string>();
  const rows: LockInfo[] = [];
  for (const w of windows)
    for (const l of w.locks) {
      if (seen.has(rowKey(l))) continue;
      seen.add(rowKey(l));
      rows.push(l);
    }
  return rows;
}

/** The cursor of the window holding row `index` of these windows' rows (0: the first row after the first window). */
export function windowAt(windows: LoadedWindow[], index: number): string | undefined {
  if (index < 0) return undefined;
  let at = 0;
  for (const w of windows) {
    if (index < at + w.locks.length) return w.cursor;
    at += w.locks.length;
  }
  return undefined;
}

/** The line under the rows: loading, capped (of how many matched), or why the next window did not load. */
export function moreFooter(
  o: { loading: boolean; capped: boolean; error: string | null },
  shown: number,
  matched: number,
): string | undefined {
  return o.loading
    ? 'Loading more…'
    : o.capped
      ? `Showing the first ${formatCount(shown)} of ${formatCount(matched)}: filter to narrow them down.`
      : o.error
        ? `Could not load more: ${o.error}`
        : undefined;
}
