'use client';

// The windows after the first, loaded by cursor as the list is scrolled (the browser holds at most MAX_ROWS rows),
// each kept with the cursor it was loaded from, so the stream can follow the one in view (use-lock-stream.ts) and
// write its rows live. Dropped when the query or the first window's end changes.
import { useCallback, useState } from 'react';
import { apiFetch, locksParams, type LocksData, type LocksQuery } from '@/lib/console/queries';
import { distinctRows, moreFooter, windowAt, type LoadedWindow } from './loaded-windows';

/** Rows the page keeps past the first window at most (a few thousand: the browser's memory stays flat). */
const MAX_ROWS = 3_000;

/** A window the stream follows: its cursor, and how to write what the stream sends into it. */
export interface FollowedWindow {
  cursor: string;
  write: (fn: (w: Pick<LocksData, 'locks' | 'nextCursor' | 'serverTime'>) => Partial<LocksData>) => void;
}

interface State {
  key: string;
  windows: LoadedWindow[];
  error?: string;
}

export function useMoreWindows(source: string, query: LocksQuery, firstCursor: string | undefined) {
  const key = `${locksParams(source, query).toString()}\u0000${firstCursor ?? ''}`;
  const [state, setState] = useState<State>({ key, windows: [] });
  const [loading, setLoading] = useState(false);
  // windows loaded for another query (or before the first window moved) are not shown
  const windows = state.key === key ? state.windows : [];
  const held = windows.reduce((n, w) => n + w.locks.length, 0);
  const last = windows[windows.length - 1];
  const next = last ? last.nextCursor : firstCursor;
  const load = useCallback(async () => {
    if (!next || loading || held >= MAX_ROWS) return;
    setLoading(true);
    try {
      const page = await apiFetch<LocksData>(`/api/locks?${locksParams(source, { ...query, cursor: next })}`);
      const loaded: LoadedWindow = { cursor: next, locks: page.locks, nextCursor: page.nextCursor };
      setState((s) => ({ key, windows: [...(s.key === key ? s.windows : []), loaded] }));
    } catch (err) {
      setState((s) => ({ ...(s.key === key ? s : { key, windows: [] }), error: (err as Error).message }));
    } finally {
      setLoading(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [next, loading, held, key]);

  /** The window holding row `index` of these rows (0: the first row after the first window), for the stream. */
  const follow = (index: number): FollowedWindow | undefined => {
    const cursor = windowAt(windows, index);
    if (cursor === undefined) return undefined;
    const write: FollowedWindow['write'] = (fn) =>
      setState((s) => {
        if (s.key !== key) return s;
        const ws = s.windows.map((x) => (x.cursor === cursor ? { ...x, ...fn({ ...x, serverTime: '' }), cursor } : x));
        return { ...s, windows: ws };
      });
    return { cursor, write };
  };

  const rows = distinctRows(windows);
  const hasMore = Boolean(next) && held < MAX_ROWS;
  const capped = held >= MAX_ROWS && Boolean(next);
  const error = state.key === key ? (state.error ?? null) : null;
  /** The line under the rows: loading, capped (of how many matched), or why the next window did not load. */
  const footer = (shown: number, matched: number) => moreFooter({ loading, capped, error }, shown, matched);
  return { rows, load, loading, hasMore, follow, capped, error, footer };
}
