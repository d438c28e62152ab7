// After an attempt: delivered (2xx), retried (a network error or timeout, 5xx, 429) with exponential backoff or the
// receiver's Retry-After, given up once the series has lasted an hour, or failed at once (any other answer: a 4xx
// says the request itself is wrong and would be wrong again; a redirect is not followed).
import type { AttemptResult } from './attempt';

export interface RetryPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  giveUpMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseDelayMs: 1_000, maxDelayMs: 5 * 60_000, giveUpMs: 60 * 60_000 };

export type FinalOutcome = 'delivered' | 'failed' | 'given-up';
type Decision = { outcome: FinalOutcome } | { retryInMs: number };

export function decide(r: AttemptResult, attempts: number, firstAt: number, now: number, p: RetryPolicy): Decision {
  const s = r.status;
  if (s !== undefined && s >= 200 && s < 300) return { outcome: 'delivered' };
  const retryable = s === undefined || s >= 500 || s === 429;
  if (!retryable) return { outcome: 'failed' };
  const backoff = Math.min(p.baseDelayMs * 2 ** Math.max(0, attempts - 1), p.maxDelayMs);
  const wait = r.retryAfterMs !== undefined ? Math.min(r.retryAfterMs, p.giveUpMs) : backoff;
  if (now + wait - firstAt > p.giveUpMs) return { outcome: 'given-up' };
  return { retryInMs: wait };
}
