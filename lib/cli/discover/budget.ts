// A target's bounds (`lockboard discover --sample/--max-requests/--max-seconds`): keys, objects or rows read, requests
// sent, time taken. Each is checked before the next request; the first one reached is named in the report.

export interface Limits {
  sample: number;
  maxRequests: number;
  maxSeconds: number;
}

export const DEFAULT_LIMITS: Limits = { sample: 10_000, maxRequests: 200, maxSeconds: 60 };

export type CappedBy = 'sample' | 'requests' | 'time';

/** The time ran out while a request was under way: what it would have answered is not waited for. */
class TimeUpError extends Error {
  constructor(seconds: number) {
    super(`stopped after ${seconds} s (--max-seconds)`);
    this.name = 'TimeUpError';
  }
}

export class Budget {
  requests = 0;
  sampled = 0;
  cappedBy?: CappedBy;
  readonly startedAt = Date.now();
  private readonly deadline: number;

  constructor(readonly limits: Limits) {
    this.deadline = this.startedAt + limits.maxSeconds * 1000;
  }

  /** Whether a bound is reached (and which, once). */
  spent(): boolean {
    if (this.cappedBy) return true;
    if (this.sampled >= this.limits.sample) this.cappedBy = 'sample';
    else if (this.requests >= this.limits.maxRequests) this.cappedBy = 'requests';
    else if (Date.now() >= this.deadline) this.cappedBy = 'time';
    return this.cappedBy !== undefined;
  }

  /** One request about to be sent; false (send none) once a bound is reached. */
  spend(): boolean {
    if (this.spent()) return false;
    this.requests++;
    return true;
  }

  /** Keys, objects or rows read. */
  take(n: number): void {
    this.sampled += n;
  }

  get sampleLeft(): number {
    return Math.max(0, this.limits.sample - this.sampled);
  }

  get elapsedMs(): number {
    return Date.now() - this.startedAt;
  }

  /** `work`, or TimeUpError once the target's time is up (the request is left to finish on its own). */
  async within<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const left = Math.max(0, this.deadline - Date.now());
    const timeUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.cappedBy ??= 'time';
        reject(new TimeUpError(this.limits.maxSeconds));
      }, left);
    });
    work.catch(() => undefined); // a request abandoned at the deadline may fail later: nobody waits for it
    try {
      return await Promise.race([work, timeUp]);
    } finally {
      clearTimeout(timer);
    }
  }
}
