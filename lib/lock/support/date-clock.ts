// A service's clock from the HTTP Date header of its responses (S3, DynamoDB): whole seconds, so each response says
// the offset lies in [Date − received, Date + 1 s − sent]. Intersecting those intervals narrows the estimate to tens
// of milliseconds after a few requests; an interval that contradicts the others (the clock was stepped) starts again.
export class DateHeaderClock {
  private offsetMs = 0;
  private bounds: [number, number] = [-Infinity, Infinity];

  now(): number {
    return Date.now() + this.offsetMs;
  }

  observe(date: string | undefined, sentAt: number): void {
    const server = date ? Date.parse(date) : NaN;
    if (!Number.isFinite(server)) return;
    const lo = server - Date.now();
    const hi = server + 1000 - sentAt;
    if (lo > this.bounds[1] || hi < this.bounds[0]) this.bounds = [lo, hi];
    else this.bounds = [Math.max(lo, this.bounds[0]), Math.min(hi, this.bounds[1])];
    this.offsetMs = (this.bounds[0] + this.bounds[1]) / 2;
  }

  /**
   * The clock of one SDK client: a middleware added to the client once reads every response's Date header (adding it
   * to each command instead made the SDK rebuild its handler chain for every request).
   */
  static of(client: object): DateHeaderClock {
    let clock = clocks.get(client);
    if (clock) return clock;
    const made = (clock = new DateHeaderClock());
    clocks.set(client, made);
    const stack = (client as { middlewareStack?: { add(mw: never, opts: object): void } }).middlewareStack;
    const middleware = ((next: (args: unknown) => Promise<{ response: { headers?: Record<string, string> } }>) =>
      async (args: unknown) => {
        const sentAt = Date.now();
        const result = await next(args);
        made.observe(result.response?.headers?.date, sentAt);
        return result;
      }) as never;
    stack?.add(middleware, { step: 'deserialize', name: 'lockboardServerDate' });
    return made;
  }

  /** Sends an AWS SDK command through `of(client)`'s clock; an error's Date header is read here. */
  async send<T>(client: { send(command: never): Promise<unknown> }, command: object): Promise<T> {
    const sentAt = Date.now();
    try {
      return (await client.send(command as never)) as T;
    } catch (err) {
      const headers = (err as { $response?: { headers?: Record<string, string> } }).$response?.headers;
      this.observe(headers?.date, sentAt);
      throw err;
    }
  }
}

const clocks = new WeakMap<object, DateHeaderClock>();
