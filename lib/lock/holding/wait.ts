// The wait every store's acquire shares: turns until one takes the lock, each answering the lock, a pause before the
// next (and the store error that caused it), or "again at once". `waitForLock` is the common case: try once; while the
// lock is held report its holder, back off with reads only (250 → 500 → 850–1000 ms), give up at timeoutMs naming the
// holder, and stop at once when the caller aborts. GCS's acquire reads the holder itself and takes its turns directly.
import { sleep, waitBackoff } from './backoff';
import { LockAbortError, LockTimeoutError } from '../errors';
import { monotonicNow } from '../time';
import type { LockInfo } from '../types';

/** A turn's answer: the lock, a pause before the next turn (`cause`: the store error behind it), or null: again now. */
export type Turn<T> = { lock: T } | { pauseMs: number; cause?: unknown } | null;

export async function takeTurns<T>(
  turn: () => Promise<Turn<T>>,
  pause: (ms: number, cause?: unknown) => Promise<void>,
): Promise<T> {
  for (;;) {
    const t = await turn();
    if (t === null) continue;
    if ('lock' in t) return t.lock;
    await pause(t.pauseMs, t.cause);
  }
}

interface WaitOptions<H extends LockInfo> {
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
  const turn = async (): Promise<Turn<T>> => {
    if (o.signal?.aborted) throw new LockAbortError(o.name, o.signal.reason);
    const acquired = await attempt();
    if (acquired !== null) return { lock: acquired };
    if (o.onWait) {
      const h = await holder().catch(() => null);
      if (h) o.onWait(h);
    }
    const waited = monotonicNow() - started;
    if (o.timeoutMs !== undefined && waited >= o.timeoutMs) {
      throw new LockTimeoutError(o.name, await holder().catch(() => null), Math.round(waited));
    }
    const pause = Math.min(backoff.next(), o.timeoutMs === undefined ? Infinity : o.timeoutMs - waited);
    return { pauseMs: Math.max(0, pause) };
  };
  return takeTurns(turn, (ms) =>
    sleep(ms, o.signal).catch(() => {
      throw new LockAbortError(o.name, o.signal?.reason);
    }),
  );
}
