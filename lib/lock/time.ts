// Server time, estimated from GCS responses, and the local monotonic clock. No decision compares a
// holder-written timestamp with the local wall clock.
import { performance } from 'node:perf_hooks';

export const monotonicNow = (): number => performance.now();

/**
 * Server now = the latest server time seen (a `Date` header, floored to its second, or an `updated` stamp of our
 * own write) plus the monotonic time elapsed since that response arrived. Every observation is a lower bound, so
 * the estimate errs towards "not yet stale".
 */
export class ServerClock {
  private serverMs: number | undefined;
  private localMs = 0;

  observeDateHeader(header: string | undefined | null): void {
    const ms = header ? Date.parse(header) : NaN;
    if (Number.isFinite(ms)) this.observe(ms, 1000);
  }

  /** A time the server stamped while handling our request (e.g. `updated` of the object we wrote). */
  observeStamp(iso: string | undefined): void {
    const ms = iso ? Date.parse(iso) : NaN;
    if (Number.isFinite(ms)) this.observe(ms, 0);
  }

  /** Server time in ms since the epoch; the local wall clock only before any response was seen. */
  now(): number {
    if (this.serverMs === undefined) return Date.now();
    return this.serverMs + (monotonicNow() - this.localMs);
  }

  get synced(): boolean {
    return this.serverMs !== undefined;
  }

  private observe(serverMs: number, resolutionMs: number): void {
    const local = monotonicNow();
    if (this.serverMs !== undefined) {
      const projected = this.serverMs + (local - this.localMs);
      // A coarser reading inside the current estimate's window adds nothing; anything else (including a server
      // clock that moved back by more than the resolution) replaces it.
      if (projected >= serverMs && projected < serverMs + resolutionMs) return;
    }
    this.serverMs = serverMs;
    this.localMs = local;
  }
}

export function isoTime(ms: number): string {
  // listings stamp thousands of objects with times that repeat (S3 keeps whole seconds): remember recent ones
  let iso = recentIso.get(ms);
  if (iso === undefined) {
    if (recentIso.size >= 4096) recentIso.clear();
    recentIso.set(ms, (iso = new Date(ms).toISOString()));
  }
  return iso;
}
const recentIso = new Map<number, string>();

/** Whether `ms` is a time a Date can represent (±8.64e15 ms); absurd stored values must never throw. */
export function isValidTime(ms: number | undefined): ms is number {
  return ms !== undefined && Number.isFinite(ms) && Math.abs(ms) <= 8.64e15;
}

/** Node timers overflow past 2^31 − 1 ms (about 24.8 days) and then fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** setTimeout for any delay: longer ones are chained below the overflow. Returns a cancel function. */
export function setLongTimeout(fn: () => void, ms: number): () => void {
  let timer: NodeJS.Timeout;
  const deadline = monotonicNow() + ms;
  const arm = (): void => {
    const left = deadline - monotonicNow();
    timer = left > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(fn, Math.max(0, left));
  };
  arm();
  return () => clearTimeout(timer);
}
