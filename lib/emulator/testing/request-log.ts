export interface RequestLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  /** What fault, if any, was applied: 'error', 'drop', 'reset', 'rate-limit'. */
  fault?: string;
  startedAt: number;
  durationMs: number;
}

/** The emulator's request log, so tests can count the requests a component makes. Keeps the newest `limit`. */
export class RequestLog {
  private list: RequestLogEntry[] = [];
  private readonly pending = new Set<{ method: string; path: string }>();

  constructor(private readonly limit = 200_000) {}

  get entries(): readonly RequestLogEntry[] {
    return this.list;
  }

  /** Requests received but not yet answered (a test can time an action onto a request in flight). */
  get inFlight(): readonly { method: string; path: string }[] {
    return [...this.pending];
  }

  /** Marks a request as in flight until the returned function is called. */
  begin(method: string, path: string): () => void {
    const entry = { method, path };
    this.pending.add(entry);
    return () => this.pending.delete(entry);
  }

  /**
   * A request from its arrival: marked in flight, and a `log(status, fault?)` that records it with its duration (both
   * servers, GCS and S3, log alike); `end` marks it answered.
   */
  track(method: string, path: string, url: URL): { log: (status: number, fault?: string) => void; end: () => void } {
    const started = performance.now();
    const startedAt = Date.now();
    return {
      end: this.begin(method, path),
      log: (status, fault) =>
        this.add({
          method,
          path,
          query: Object.fromEntries(url.searchParams),
          status,
          fault,
          startedAt,
          durationMs: performance.now() - started,
        }),
    };
  }

  add(entry: RequestLogEntry): void {
    this.list.push(entry);
    if (this.list.length > this.limit) this.list = this.list.slice(-Math.floor(this.limit / 2));
  }

  clear(): void {
    this.list = [];
  }

  count(filter: (e: RequestLogEntry) => boolean = () => true): number {
    return this.list.reduce((n, e) => (filter(e) ? n + 1 : n), 0);
  }
}
