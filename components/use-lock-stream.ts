'use client';

// The locks page's live feed: one EventSource per tab on /api/locks/stream, written into TanStack Query's cache
// (snapshot, changes, ticks), so the list stops polling while the stream is open. A stream the server refused (401,
// 403, 503: EventSource never retries those) falls back to polling, whose 401 sends the user to sign in, and is
// opened again with backoff; a dropped connection reconnects by itself and starts again from a new snapshot.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import type { LocksData } from '@/lib/queries';
import { signInAgain } from './get-query-client';

/** live: pushed by the server; connecting: opening or reconnecting; polling: no stream, the list polls. */
export type LiveState = 'connecting' | 'live' | 'polling';

interface Change {
  bucket: string;
  serverTime: string;
  upsert: LockInfo[];
  remove: string[];
}

/** A tab hidden this long closes its stream. */
const HIDDEN_CLOSE_MS = 30_000;

/** Not live this long after opening: poll meanwhile (a proxy that buffers the stream, say). */
const OPEN_TIMEOUT_MS = 10_000;

export function useLockStream(source: string): LiveState {
  const client = useQueryClient();
  // a browser without EventSource polls from the start
  const [state, setState] = useState<LiveState>(() =>
    typeof window !== 'undefined' && typeof EventSource === 'undefined' ? 'polling' : 'connecting',
  );
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const key = ['locks', source] as const;
    let es: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let opening: ReturnType<typeof setTimeout> | undefined;
    let refusals = 0;
    const fallBack = () => {
      es?.close();
      setState('polling');
      void client.invalidateQueries({ queryKey: key }); // the poll says why (a 401 sends the user to sign in)
      retry = setTimeout(open, Math.min(60_000, 2_000 * 2 ** Math.min(refusals++, 5)));
    };
    const open = () => {
      es = new EventSource(`/api/locks/stream?source=${encodeURIComponent(source)}`);
      opening = setTimeout(() => setState('polling'), OPEN_TIMEOUT_MS);
      es.addEventListener('snapshot', (e) => {
        clearTimeout(opening);
        refusals = 0;
        setState('live');
        const snap = JSON.parse((e as MessageEvent<string>).data) as Pick<
          LocksData,
          'serverTime' | 'skipped' | 'locks'
        >;
        client.setQueryData<LocksData>(key, (old) => ({
          ...(old ?? { source }),
          serverTime: snap.serverTime,
          skipped: snap.skipped,
          locks: snap.locks,
          nextPageToken: undefined,
          partial: undefined,
        }));
      });
      es.addEventListener('change', (e) => {
        const change = JSON.parse((e as MessageEvent<string>).data) as Change;
        client.setQueryData<LocksData>(key, (old) => old && applyChange(old, change));
      });
      es.addEventListener('tick', (e) => {
        const { serverTime } = JSON.parse((e as MessageEvent<string>).data) as { serverTime: string };
        if (serverTime) client.setQueryData<LocksData>(key, (old) => old && { ...old, serverTime });
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
    // a tab left in the background gives its connection back (a browser has ~6 per site over HTTP/1.1, and every
    // open tab would hold one); back in view, it opens again from a new snapshot
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
    // a server render of the page (a navigation, a refresh) hydrates its first screen over what the stream sent:
    // ask the stream for a new snapshot
    const unwatch = client.getQueryCache().subscribe((event) => {
      const [name, of] = event.query.queryKey as [string, string];
      if (event.type !== 'updated' || name !== 'locks' || of !== source) return;
      if (!(event.query.state.data as LocksData | undefined)?.partial) return;
      if (es?.readyState !== EventSource.OPEN) return;
      es.close();
      clearTimeout(opening);
      open();
    });
    return () => {
      unwatch();
      document.removeEventListener('visibilitychange', onVisibility);
      es?.close();
      clearTimeout(retry);
      clearTimeout(opening);
      clearTimeout(hidden);
    };
  }, [client, source]);
  return state;
}

/** The listing with one change applied: locks of `bucket` added, replaced or removed by name. */
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
  locks.push(...fresh.values());
  return { ...data, serverTime: change.serverTime, locks };
}
