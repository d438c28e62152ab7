// What one store remembers of ZooKeeper sessions across its listing passes (docs/verdict.md "The reach of evidence"):
// `cons` shows only the sessions connected at that moment, and a session between connections stays valid on the server
// for its whole timeout, to be resumed on any member. So absence counts only from the first pass that found a session
// in no member's `cons` (its client may have answered until just before it), and only for as long as its timeout: the
// negotiated one (`to=` in `cons`) where the session was once seen connected.

/** A session absent from every member's `cons`: since when (the store's clock), and its timeout where it was seen. */
export interface Absence {
  sinceMs: number;
  timeoutMs?: number;
  lastSeenMs?: number;
}

/** Sessions seen this long ago are forgotten (then judged as never seen: unknown for the longest timeout). */
const KEEP_MS = 60 * 60_000;
/** At most this many sessions remembered; the least recently seen go first. */
const MAX_SESSIONS = 100_000;
/**
 * Absence counts across whole passes no further apart than this: a client may reconnect, renew its session and drop
 * again between two passes, unseen, and the longer the gap the likelier.
 */
const MAX_PASS_GAP_MS = 10_000;

export class SessionMemory {
  private readonly seen = new Map<string, { atMs: number; timeoutMs: number }>();
  private readonly absent = new Map<string, number>();
  private lastWholeMs: number | undefined;

  /**
   * A pass begins: absence counts only across passes that read every member's `cons` (`whole`), each soon after the
   * last; any other pass, or a gap longer than MAX_PASS_GAP_MS, starts every absence over.
   */
  pass(nowMs: number, whole: boolean): void {
    if (!whole || this.lastWholeMs === undefined || nowMs - this.lastWholeMs > MAX_PASS_GAP_MS) this.absent.clear();
    this.lastWholeMs = whole ? nowMs : undefined;
  }

  /** One pass's `cons` (session id hex → timeout): each session connected now is seen now, its absence over. */
  observe(connected: Iterable<[string, { timeoutMs: number }]>, nowMs: number): void {
    for (const [sid, info] of connected) {
      this.seen.delete(sid); // re-inserted last: the map stays in order of last sight
      this.seen.set(sid, { atMs: nowMs, timeoutMs: info.timeoutMs });
      this.absent.delete(sid);
    }
    this.prune(nowMs);
  }

  /** A session looked for in every member's `cons` at `nowMs` and not found: since when it has been absent. */
  absentAt(sid: string, nowMs: number): Absence {
    let sinceMs = this.absent.get(sid);
    if (sinceMs === undefined) this.absent.set(sid, (sinceMs = nowMs));
    const seen = this.seen.get(sid);
    return { sinceMs, ...(seen ? { timeoutMs: seen.timeoutMs, lastSeenMs: seen.atMs } : {}) };
  }

  /** The server renewed the session between two passes (it outlived its timeout): its absence starts over. */
  restart(sid: string, nowMs: number): void {
    this.absent.set(sid, nowMs);
  }

  private prune(nowMs: number): void {
    for (const [sid, s] of this.seen) {
      if (s.atMs >= nowMs - KEEP_MS && this.seen.size <= MAX_SESSIONS) break;
      this.seen.delete(sid);
    }
    for (const [sid, since] of this.absent) {
      if (since >= nowMs - KEEP_MS && this.absent.size <= MAX_SESSIONS) break;
      this.absent.delete(sid);
    }
  }
}
