// The wait every store's acquire shares: try once; while the lock is held report its holder, back off with reads
// only (250 → 500 → 850–1000 ms), give up at timeoutMs naming the holder, and stop at once when the caller aborts.
import { sleep, waitBackoff } from './backoff';
import { LockAbortError, LockTimeoutError } from '../errors';
import { monotonicNow } from '../time';
import type { LockInfo } from '../types';

export interface WaitOptions<H extends LockInfo> {
  name: string;
  /** undefined = wait without limit; 0 = try once. */
  timeoutMs?: number;
  signal?: AbortSignal;
  onWait?: (holder: H) => void;
}

export async function waitForLock<T, H extends LockInfo>(
  o: WaitOptions<H>,
  attempt: () => Promise<T | null>,
  holder: () => Promise<H | null>,
): Promise<T> {
  const started = monotonicNow();
  const backoff = waitBackoff();
  for (;;) {
    if (o.signal?.aborted) throw new LockAbortError(o.name, o.signal.reason);
    const acquired = await attempt();
    if (acquired !== null) return acquired;
    if (o.onWait) {
      const h = await holder().catch(() => null);
      if (h) o.onWait(h);
    }
    const waited = monotonicNow() - started;
    if (o.timeoutMs !== undefined && waited >= o.timeoutMs) {
      throw new LockTimeoutError(o.name, await holder().catch(() => null), Math.round(waited));
    }
    const pause = Math.min(backoff.next(), o.timeoutMs === undefined ? Infinity : o.timeoutMs - waited);
    await sleep(Math.max(0, pause), o.signal).catch(() => {
      throw new LockAbortError(o.name, o.signal?.reason);
    });
  }
}
