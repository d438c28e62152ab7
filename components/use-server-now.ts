'use client';

import { useEffect, useState } from 'react';

/** The local wall clock, re-rendering once a second. */
export function useLocalNow(): number {
  const [local, setLocal] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setLocal(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return local;
}

/** Server time now, from the `serverTime` of a response and the local time that response arrived; ticks each second. */
export function useServerNow(serverTime: string | undefined, receivedAt: number): number {
  const local = useLocalNow();
  if (!serverTime) return local;
  return Date.parse(serverTime) + Math.max(0, local - receivedAt);
}
