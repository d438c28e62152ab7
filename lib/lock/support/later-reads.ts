// Background reads for metadata-first listings: at most `limit` in flight across every listing of a process (a cold
// 10 000-object prefix must not open thousands of connections), results delivered in batches (one callback per
// ~100 ms, not one per object).

export class ReadLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  /** Highest number in flight so far (tests). */
  peak = 0;

  async run<T>(fn: () => Promise<T>): Promise<T> {
    // a freed slot is handed straight to the next waiter, so a newcomer can never slip in past the limit
    if (this.active >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    else this.active++;
    this.peak = Math.max(this.peak, this.active);
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** Reads every item through `limiter`, handing results to `deliver` in batches; resolves when all are delivered. */
export async function readLater<T, R>(
  items: T[],
  limiter: ReadLimiter,
  read: (item: T) => Promise<R>,
  deliver: (batch: R[]) => void,
  everyMs = 100,
): Promise<void> {
  let batch: R[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (batch.length === 0) return;
    const out = batch;
    batch = [];
    deliver(out);
  };
  await Promise.all(
    items.map((item) =>
      limiter.run(async () => {
        const result = await read(item);
        batch.push(result); // not `batch.push(await …)`: that pushes onto the array a flush meanwhile handed over
        timer ??= setTimeout(flush, everyMs);
      }),
    ),
  );
  flush();
}
