// The claims this replica found pending in another replica's lease: each is tried again when that lease runs out
// (claims.ts takes it over if it was not renewed, settled or taken by a third replica meanwhile), so an event claimed
// by a replica that crashed, restarted or dropped it is still delivered. While few are followed each is looked at again
// every RECHECK_MS too, so one handed back (expired at once: a full queue, a replica stopping) is taken in seconds, not
// a lease. Bounded: beyond MAX the oldest is forgotten (a restarted replica's look-back, or the others, still find it).
import type { Source } from '../sources';
import type { NotifyEvent } from './event';

interface Takeover {
  event: NotifyEvent;
  source: Source;
  hook: string;
  /** When to try again (this process's clock). */
  at: number;
}

const MAX = 20_000;
const RECHECK_MS = 10_000;
const RECHECK_FEW = 200;

export class Takeovers {
  private readonly waiting = new Map<string, Takeover>();

  get size(): number {
    return this.waiting.size;
  }

  /** Follows the claim `key`, pending until `until` (this process's clock); `recheck: false` not sooner. */
  watch(key: string, t: Omit<Takeover, 'at'>, until: number, o: { recheck?: boolean } = {}): void {
    this.waiting.delete(key);
    if (this.waiting.size >= MAX) this.waiting.delete(this.waiting.keys().next().value!);
    const soon = o.recheck !== false && this.waiting.size < RECHECK_FEW;
    const at = soon ? Math.min(until, Date.now() + RECHECK_MS) : until;
    this.waiting.set(key, { ...t, at });
  }

  /** The claims whose leases have run out by `now`, no longer followed (a claim still pending is watched again). */
  due(now: number): Takeover[] {
    const out: Takeover[] = [];
    for (const [key, t] of this.waiting)
      if (t.at <= now) {
        this.waiting.delete(key);
        out.push(t);
      }
    return out;
  }
}
