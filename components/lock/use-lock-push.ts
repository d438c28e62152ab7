'use client';

// The lock page's live feed: one EventSource on /api/lock-stream for the lock shown, written into TanStack Query's
// cache, so the page stops polling while it is open. Refused (EventSource never retries a 401/403/503): the page polls
// and the stream is tried again with backoff.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { lockQuery, type LockDetailData } from '@/lib/console/queries';
import { signInAgain } from '../get-query-client';
import type { LiveState } from '../locks/lock-stream-connection';

export function useLockPush(name: string, bucket?: string): LiveState {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>(() =>
    typeof window !== 'undefined' && typeof EventSource === 'undefined' ? 'polling' : 'connecting',
  );
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const key = lockQuery(name, bucket).queryKey;
    const qs = new URLSearchParams({ name, ...(bucket ? { bucket } : {}) });
    let es: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let refusals = 0;
    const open = () => {
      es = new EventSource(`/api/lock-stream?${qs}`);
      es.addEventListener('lock', (e) => {
        refusals = 0;
        setState('live');
        const data = JSON.parse((e as MessageEvent<string>).data) as LockDetailData | { absent: true };
        client.setQueryData(key, 'absent' in data ? null : data);
      });
      es.addEventListener('tick', (e) => {
        const { serverTime } = JSON.parse((e as MessageEvent<string>).data) as { serverTime: string };
        client.setQueryData<LockDetailData | null>(key, (old) => (old && serverTime ? { ...old, serverTime } : old));
      });
      es.addEventListener('signed-out', () => {
        es?.close();
        signInAgain();
      });
      es.onerror = () => {
        if (es?.readyState !== EventSource.CLOSED) return setState((s) => (s === 'live' ? 'connecting' : s));
        setState('polling');
        retry = setTimeout(open, Math.min(60_000, 2_000 * 2 ** Math.min(refusals++, 5)));
      };
    };
    open();
    return () => {
      es?.close();
      clearTimeout(retry);
    };
  }, [client, name, bucket]);
  return state;
}
