'use client';

// The locks page's data: the window of its query, pushed by the stream while it is open and polled otherwise; the
// windows after it loaded by cursor as the list is scrolled (the browser holds at most MAX_ROWS rows); and the filter
// box, kept in the address a moment after each keystroke.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { apiFetch, locksParams, locksQuery, POLL_INTERVAL_MS, type LocksData, type LocksQuery } from '@/lib/queries';
import { useLockStream } from './use-lock-stream';
import type { useUrlState } from './use-url-state';

/** Rows the page keeps past the first window at most (a few thousand: the browser's memory stays flat). */
export const MAX_ROWS = 3_000;

export function useLocksData(source: string, query: LocksQuery) {
  const { state: live, reload } = useLockStream(source, query);
  // while the stream is open (or reconnecting by itself) the server pushes the window: no polling
  const pushed = live !== 'polling';
  const data = useQuery({
    ...locksQuery(source, query),
    placeholderData: keepPreviousData,
    ...(pushed
      ? { refetchInterval: false as const, staleTime: Infinity }
      : {
          refetchInterval: (q: { state: { data?: LocksData } }) =>
            q.state.data?.partial || q.state.data?.locks.some((l) => l.pending) ? 1_000 : POLL_INTERVAL_MS,
        }),
  });
  const more = useMoreWindows(source, query, data.data?.nextCursor);
  return { live, query: data, more, reload };
}

/** The windows after the first, by cursor; dropped when the query or the first window's end changes. */
function useMoreWindows(source: string, query: LocksQuery, firstCursor: string | undefined) {
  const params = locksParams(source, query).toString();
  const key = `${params}\u0000${firstCursor ?? ''}`;
  const [state, setState] = useState<{ key: string; rows: LockInfo[]; cursor?: string; error?: string }>({
    key,
    rows: [],
  });
  const [loading, setLoading] = useState(false);
  // a window loaded for another query (or before the first window moved) is not shown
  const mine = state.key === key ? state : { key, rows: [] as LockInfo[] };
  const next = mine.rows.length ? mine.cursor : firstCursor;
  const load = useCallback(async () => {
    if (!next || loading || mine.rows.length >= MAX_ROWS) return;
    setLoading(true);
    try {
      const page = await apiFetch<LocksData>(`/api/locks?${locksParams(source, { ...query, cursor: next })}`);
      setState((s) => ({
        key,
        rows: [...(s.key === key ? s.rows : []), ...page.locks],
        ...(page.nextCursor ? { cursor: page.nextCursor } : {}),
      }));
    } catch (err) {
      setState((s) => ({ ...(s.key === key ? s : { key, rows: [] }), error: (err as Error).message }));
    } finally {
      setLoading(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [next, loading, mine.rows.length, key]);
  const hasMore = Boolean(next) && mine.rows.length < MAX_ROWS;
  return {
    rows: mine.rows,
    load,
    loading,
    hasMore,
    capped: mine.rows.length >= MAX_ROWS && Boolean(next),
    error: 'error' in mine ? (mine.error ?? null) : null,
  };
}

/** The filter box answers every keystroke; the address follows a moment later (replace: no history per key). */
export function useFilterText(url: ReturnType<typeof useUrlState>) {
  const [text, setText] = useState(url.q);
  const { q: urlQ, update } = url;
  const written = useRef(urlQ);
  useEffect(() => {
    // The address changed by itself (back button, a shared link): the box follows it
    if (urlQ !== written.current) {
      written.current = urlQ;
      setText(urlQ);
    }
  }, [urlQ]);
  useEffect(() => {
    if (text === written.current) return;
    const timer = setTimeout(() => {
      written.current = text;
      update({ q: text }, 'replace');
    }, 300);
    return () => clearTimeout(timer);
  }, [text, update]);
  return [text, setText] as const;
}
