'use client';

// The locks page's data: pushed by the stream while it is open, polled otherwise; and its filter box, kept in the
// address a moment after each keystroke.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { locksQuery, POLL_INTERVAL_MS, type LocksData } from '@/lib/queries';
import { useLockStream } from './use-lock-stream';
import type { useUrlState } from './use-url-state';

export function useLocksData(source: string) {
  const live = useLockStream(source);
  // while the stream is open (or reconnecting by itself) the server pushes every change: no polling
  const pushed = live !== 'polling';
  const query = useQuery({
    ...locksQuery(source),
    placeholderData: keepPreviousData,
    // polled: sooner while the list is a first screen or some rows are still being read
    ...(pushed
      ? { refetchInterval: false as const, staleTime: Infinity }
      : {
          refetchInterval: (q: { state: { data?: LocksData } }) =>
            q.state.data?.partial || q.state.data?.locks.some((l) => l.pending) ? 1_000 : POLL_INTERVAL_MS,
        }),
  });
  return { live, query };
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
