// Exponential backoff with full jitter, and sleeps that end early on abort.

export class Backoff {
  private attempt = 0;

  constructor(
    private readonly firstMs = 250,
    private readonly capMs = 5_000,
    private readonly random: () => number = Math.random,
  ) {}

  next(): number {
    const ceiling = Math.min(this.capMs, this.firstMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    return Math.round(this.random() * ceiling);
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
