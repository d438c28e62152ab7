'use client';

// The locks page's live feed: one EventSource per tab on /api/locks/stream for the page's query and the window in
// view (the first, in TanStack Query's cache, or one loaded by scrolling, by its cursor): the window (`snapshot`),
// changes to its rows, counts and listing progress (always into the first window's cache), and how many
// matching rows outside the window are new or changed. A stream the server refused (401, 403, 503: EventSource never
// retries those) falls back to polling the window and is opened again with backoff; a dropped connection reconnects by
// itself and gets the window again (never the whole set).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { locksParams, locksQuery, type LocksData, type LocksQuery } from '@/lib/console/queries';
import { signInAgain } from '../get-query-client';
import type { FollowedWindow } from './use-more-windows';

/** live: pushed by the server; connecting: opening or reconnecting; polling: no stream, the list polls. */
export type LiveState = 'connecting' | 'live' | 'polling';

interface Change {
  bucket: string;
  serverTime: string;
  upsert: LockInfo[];
  remove: string[];
  /** A window that held every match took new rows: its rows in order (`bucket\0name`). */
  order?: string[];
}

/** A tab hidden this long closes its stream. */
const HIDDEN_CLOSE_MS = 30_000;
/** Not live this long after opening: poll meanwhile (a proxy that buffers the stream, say). */
const OPEN_TIMEOUT_MS = 10_000;

const parse = <T>(e: Event): T => JSON.parse((e as MessageEvent<string>).data) as T;

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
    const intoWindow = writer.current; // this stream's window, fixed while it is open
    let es: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let opening: ReturnType<typeof setTimeout> | undefined;
    let refusals = 0;
    const update = (fn: (old: LocksData) => LocksData) => client.setQueryData<LocksData>(key, (old) => old && fn(old));
    // rows go to the window followed; counts, progress and the time always to the query's first window
    const updateRows = (fn: (old: LocksData) => LocksData) =>
      intoWindow ? intoWindow((w) => fn(w as LocksData)) : update(fn);
    const fallBack = () => {
      es?.close();
      setState('polling');
      void client.invalidateQueries({ queryKey: key }); // the poll says why (a 401 sends the user to sign in)
      retry = setTimeout(open, Math.min(60_000, 2_000 * 2 ** Math.min(refusals++, 5)));
    };
    const open = () => {
      es = new EventSource(`/api/locks/stream?${params}`);
      opening = setTimeout(() => setState('polling'), OPEN_TIMEOUT_MS);
      es.addEventListener('snapshot', (e) => {
        clearTimeout(opening);
        refusals = 0;
        setState('live');
        const snap = { ...parse<LocksData>(e), outside: { added: 0, changed: 0 } };
        if (!intoWindow) client.setQueryData<LocksData>(key, snap);
        else {
          intoWindow(() => ({ locks: snap.locks, nextCursor: snap.nextCursor }));
          update((old) => ({ ...snap, locks: old.locks, nextCursor: old.nextCursor }));
        }
      });
      es.addEventListener('change', (e) => updateRows((old) => applyChange(old, parse<Change>(e))));
      es.addEventListener('counts', (e) => {
        const c = parse<Omit<LocksData, 'locks'>>(e);
        update((old) => ({ ...old, ...c, locks: old.locks, nextCursor: old.nextCursor }));
      });
      es.addEventListener('tick', (e) => {
        const { serverTime } = parse<{ serverTime: string }>(e);
        if (serverTime) update((old) => ({ ...old, serverTime }));
      });
      es.addEventListener('failure', fallBack);
      es.addEventListener('signed-out', () => {
        es?.close();
        signInAgain();
      });
      es.onerror = () => {
        // CLOSED: refused, never retried by the browser; CONNECTING: it is reconnecting by itself
        if (es?.readyState === EventSource.CLOSED) fallBack();
        else setState((s) => (s === 'live' ? 'connecting' : s));
      };
    };
    open();
    // a tab left in the background gives its connection back; back in view, it opens again with a fresh window
    let hidden: ReturnType<typeof setTimeout> | undefined;
    const onVisibility = () => {
      clearTimeout(hidden);
      if (document.visibilityState === 'hidden') {
        hidden = setTimeout(() => {
          es?.close();
          clearTimeout(retry);
          clearTimeout(opening);
          es = undefined;
        }, HIDDEN_CLOSE_MS);
      } else if (!es || es.readyState === EventSource.CLOSED) {
        clearTimeout(retry);
        setState('connecting');
        open();
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      es?.close();
      clearTimeout(retry);
      clearTimeout(opening);
      clearTimeout(hidden);
    };
    // `params` names the query; `generation` reopens the stream for a fresh window (the "+N new" button)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, params, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { state, reload };
}

/** The window with one change applied: rows of `bucket` replaced or removed by name, new ones placed by `order`. */
export function applyChange(data: LocksData, change: Change): LocksData {
  const gone = new Set(change.remove);
  const fresh = new Map(change.upsert.map((l) => [l.name, l]));
  const locks: LockInfo[] = [];
  for (const l of data.locks) {
    if (l.bucket !== change.bucket) locks.push(l);
    else if (fresh.has(l.name)) {
      locks.push(fresh.get(l.name)!);
      fresh.delete(l.name);
    } else if (!gone.has(l.name)) locks.push(l);
  }
  if (change.order && fresh.size) {
    locks.push(...fresh.values());
    const at = new Map(change.order.map((k, i) => [k, i]));
    const pos = (l: LockInfo) => at.get(`${l.bucket}\u0000${l.name}`) ?? Number.MAX_SAFE_INTEGER;
    locks.sort((a, b) => pos(a) - pos(b));
  }
  return { ...data, serverTime: change.serverTime, locks };
}
