// Exponential backoff with jitter, and sleeps that end early on abort.

export class Backoff {
  private attempt = 0;

  /**
   * Waits grow from `firstMs` to `capMs`; each is drawn from [floor × ceiling, ceiling] (`floor` 0 = full jitter).
   */
  constructor(
    private readonly firstMs = 250,
    private readonly capMs = 5_000,
    private readonly random: () => number = Math.random,
    private readonly floor = 0,
  ) {}

  next(): number {
    const ceiling = Math.min(this.capMs, this.firstMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    return Math.round(ceiling * (this.floor + (1 - this.floor) * this.random()));
  }

  reset(): void {
    this.attempt = 0;
  }

  /**
   * The wait after a failed write: GCS allows about one write per second per object name, so after a 429 the next
   * write waits at least a second (plus jitter) instead of a short backoff that would meet another 429.
   */
  afterWriteFailure(status: number | undefined): number {
    const next = this.next();
    return status === 429 ? 1_000 + Math.round(this.random() * 500) : next;
  }
}

/**
 * The re-check interval of a waiter: reads are cheap and not limited per object, and a waiter must notice a
 * release within about a second however long it has waited, so waits grow 250 → 500 → 850–1000 ms (≈1.1 reads/s).
 */
export function waitBackoff(random: () => number = Math.random): Backoff {
  return new Backoff(250, 1_000, random, 0.85);
}

/** Resolves after `ms`, or rejects with `signal.reason` as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Settles like `promise`, or rejects with `signal.reason` as soon as the signal aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
