'use client';

import { useEffect, useState } from 'react';

/**
 * The local wall clock, re-rendering once a second. The first render uses `initial` (e.g. when the data was
 * fetched, which the server and the browser agree on), so server-rendered text hydrates without a mismatch; the
 * clock starts after mount.
 */
export function useLocalNow(initial = 0): number {
  const [local, setLocal] = useState(initial);
  useEffect(() => {
    const tick = () => setLocal(Date.now());
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 1_000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, []);
  return local;
}

/** Server time now, from the `serverTime` of a response and the local time that response arrived; ticks each second. */
export function useServerNow(serverTime: string | undefined, receivedAt: number): number {
  const local = useLocalNow(receivedAt);
  if (!serverTime) return local;
  return Date.parse(serverTime) + Math.max(0, local - receivedAt);
}
