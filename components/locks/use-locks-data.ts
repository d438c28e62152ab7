'use client';

// The locks page's data: the window of its query, pushed by the stream while it is open and polled otherwise; the
// windows after it loaded by cursor as the list is scrolled (use-more-windows.ts), the one in view followed by the
// stream; and the filter box, kept in the address a moment after each keystroke.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { locksQuery, POLL_INTERVAL_MS, type LocksData, type LocksQuery } from '@/lib/console/queries';
import { useLockStream } from './use-lock-stream';
import { useMoreWindows } from './use-more-windows';

import type { useUrlState } from '../ui/use-url-state';

/**
 * The page's data. `topRow` is the first row in view: the stream follows the window that holds it (the first one, or
 * one loaded by scrolling), so the rows in view are live wherever the list is scrolled.
 */
export function useLocksData(source: string, query: LocksQuery, topRow: number) {
  // while the stream is open (or reconnecting by itself) the server pushes the window: no polling
  const pushed = useRef(false);
  const data = useQuery({
    ...locksQuery(source, query),
    placeholderData: keepPreviousData,
    staleTime: () => (pushed.current ? Infinity : 0),
    refetchInterval: (q: { state: { data?: LocksData } }) =>
      pushed.current
        ? false
        : q.state.data?.partial || q.state.data?.locks.some((l) => l.pending)
          ? 1_000
          : POLL_INTERVAL_MS,
  });
  const more = useMoreWindows(source, query, data.data?.nextCursor);
  const first = data.data?.locks;
  const { state: live, reload } = useLockStream(source, query, more.follow(topRow - (first?.length ?? 0)));
  useEffect(() => {
    pushed.current = live !== 'polling';
  }, [live]);
  const rows = useMemo(() => {
    const shown = new Set((first ?? []).map((l) => `${l.bucket}\u0000${l.name}`));
    return [...(first ?? []), ...more.rows.filter((l) => !shown.has(`${l.bucket}\u0000${l.name}`))];
  }, [first, more.rows]);
  return { live, query: data, more, rows, reload };
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
