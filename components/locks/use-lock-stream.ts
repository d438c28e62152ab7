'use client';

// The locks page's live feed: one EventSource per tab on /api/locks/stream for the page's query and the window in
// view (the first, in TanStack Query's cache, or one loaded by scrolling, by its cursor): the window (`snapshot`),
// changes to its rows, counts and listing progress (always into the first window's cache), and how many
// matching rows outside the window are new or changed. A stream the server refused (401, 403, 503: EventSource never
// retries those) falls back to polling the window and is opened again with backoff; a dropped connection reconnects by
// itself and gets the window again (never the whole set). The connection: lock-stream-connection.ts; the cache
// writes: lock-stream-cache.ts.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { locksParams, locksQuery, type LocksQuery } from '@/lib/console/queries';
import { streamWriters } from './lock-stream-cache';
import { connectLockStream, type LiveState } from './lock-stream-connection';
import type { FollowedWindow } from './use-more-windows';

export function useLockStream(
  source: string,
  query: LocksQuery,
  follow?: FollowedWindow,
): { state: LiveState; reload: () => void } {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>(() =>
    typeof window !== 'undefined' && typeof EventSource === 'undefined' ? 'polling' : 'connecting',
  );
  const [generation, setGeneration] = useState(0);
  // the window in view: the first (the query's cache) or one loaded by scrolling, which the stream writes into
  const cursor = follow?.cursor;
  const params = locksParams(source, cursor ? { ...query, cursor } : query).toString();
  const writer = useRef(follow?.write);
  useEffect(() => {
    writer.current = follow?.write; // before the stream's effect below: a new window is written by its own stream
  });
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const key = locksQuery(source, query).queryKey;
    return connectLockStream(`/api/locks/stream?${params}`, {
      // into this stream's window, fixed while it is open
      write: streamWriters(client, key, writer.current, Boolean(query.q || query.health || query.verdict)),
      setState,
      // the poll says why (a 401 sends the user to sign in)
      refused: () => void client.invalidateQueries({ queryKey: key }),
    });
    // `params` names the query; `generation` reopens the stream for a fresh window (the "+N new" button)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, params, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { state, reload };
}
