// Churn arithmetic over audit events: pure functions, used by the summary route and unit-tested on their own.
import { KNOWN_AUDIT_EVENTS, type AuditEventKind, type AuditRecord } from '@/lib/lock/audit/record';
import { outsideDeletions } from './generation-ends';

/** Every event kind, in the trail's order (one list: lib/lock/audit/record.ts). */
export const EVENT_KINDS: AuditEventKind[] = [...KNOWN_AUDIT_EVENTS];

export interface HourBucket {
  hour: string;
  counts: Record<AuditEventKind, number>;
}

/** An event with the source it was read from, where known (the console names each event's one source). */
export type ChurnEvent = AuditRecord & { source?: string; bucket?: string };

/** A lock in a ranking: its name and, so its link opens the right lock, its source and bucket. */
interface RankedLock {
  lock: string;
  source?: string;
  bucket?: string;
}

/** An audit trail that could not be read: the sources it serves, why (the store's words), the last good read. */
export interface TrailFault {
  sources: string[];
  store: string;
  message: string;
  /** When this console last read the trail in full (ISO), or null when it never did. */
  lastGoodAt: string | null;
}

/** A trail kept only in memory (its store says it would not survive its server's restart): its sources and why. */
export interface MemoryOnlyTrail {
  sources: string[];
  store: string;
  message: string;
}

export interface ChurnSummary {
  from: string;
  to: string;
  total: number;
  perHour: HourBucket[];
  topByAcquisitions: (RankedLock & { acquisitions: number })[];
  topByHeldTime: (RankedLock & { heldMs: number })[];
  holdTime: { count: number; p50: number | null; p95: number | null; max: number | null };
  holdTimeBuckets: { label: string; count: number }[];
  takeovers: ChurnEvent[];
  failures: ChurnEvent[];
  forceReleases: ChurnEvent[];
  /** Lockboard locks deleted with no Lockboard release (GCS notifications), newest first. */
  deletedOutside: ChurnEvent[];
}

const HOUR = 3_600_000;
const BUCKETS: [string, number][] = [
  ['< 1 s', 1_000],
  ['1–10 s', 10_000],
  ['10 s–1 min', 60_000],
  ['1–10 min', 600_000],
  ['10 min–1 h', HOUR],
  ['> 1 h', Infinity],
];

const zeroCounts = (): Record<AuditEventKind, number> =>
  Object.fromEntries(EVENT_KINDS.map((k) => [k, 0])) as Record<AuditEventKind, number>;

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/**
 * Observed create/delete events of Lockboard-format locks repeat what the holders recorded themselves: counting both
 * would double the churn, so only foreign formats' observed events (and deleted-outside) are counted.
 */
function withoutDuplicates<E extends AuditRecord>(events: E[]): E[] {
  return events.filter(
    (e) => !((e.event === 'observed-created' || e.event === 'observed-deleted') && e.format === 'lockboard'),
  );
}

/** A lock's key in the rankings: the same name in two sources is two locks. */
const rankKey = (e: ChurnEvent) => JSON.stringify([e.source ?? '', e.bucket ?? '', e.lock]);
function ranked(key: string): RankedLock {
  const [source, bucket, lock] = JSON.parse(key) as [string, string, string];
  return { lock, ...(source ? { source } : {}), ...(bucket ? { bucket } : {}) };
}

export function summarise(all: ChurnEvent[], from: Date, to: Date, top = 10): ChurnSummary {
  const events = withoutDuplicates(all);
  const start = Math.floor(from.getTime() / HOUR) * HOUR;
  const hours = new Map<number, HourBucket>();
  for (let h = start; h < to.getTime(); h += HOUR)
    hours.set(h, { hour: new Date(h).toISOString(), counts: zeroCounts() });
  const acquisitions = new Map<string, number>();
  const held = new Map<string, number>();
  const holds: number[] = [];
  for (const e of events) {
    const bucket = hours.get(Math.floor(Date.parse(e.at) / HOUR) * HOUR);
    if (bucket && e.event !== 'unknown') bucket.counts[e.event]++;
    if (e.event === 'acquired' || e.event === 'took-over' || e.event === 'observed-created')
      acquisitions.set(rankKey(e), (acquisitions.get(rankKey(e)) ?? 0) + 1);
    if ((e.event === 'released' || e.event === 'lost') && e.held_ms !== undefined) {
      holds.push(e.held_ms);
      held.set(rankKey(e), (held.get(rankKey(e)) ?? 0) + e.held_ms);
    }
  }
  // Foreign locks' hold times: created → deleted, as observed
  const created = new Map<string, number>();
  for (const e of events) {
    if (e.event === 'observed-created' && e.generation) created.set(`${rankKey(e)}#${e.generation}`, Date.parse(e.at));
    if (e.event === 'observed-deleted' && e.generation) {
      const start = created.get(`${rankKey(e)}#${e.generation}`);
      if (start !== undefined) {
        const ms = Date.parse(e.at) - start;
        holds.push(ms);
        held.set(rankKey(e), (held.get(rankKey(e)) ?? 0) + ms);
      }
    }
  }
  holds.sort((a, b) => a - b);
  const newestFirst = (a: ChurnEvent, b: ChurnEvent) => (a.at < b.at ? 1 : -1);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    total: events.length,
    perHour: [...hours.values()],
    topByAcquisitions: [...acquisitions]
      .map(([key, n]) => ({ ...ranked(key), acquisitions: n }))
      .sort((a, b) => b.acquisitions - a.acquisitions || (a.lock < b.lock ? -1 : 1))
      .slice(0, top),
    topByHeldTime: [...held]
      .map(([key, ms]) => ({ ...ranked(key), heldMs: ms }))
      .sort((a, b) => b.heldMs - a.heldMs || (a.lock < b.lock ? -1 : 1))
      .slice(0, top),
    holdTime: {
      count: holds.length,
      p50: percentile(holds, 50),
      p95: percentile(holds, 95),
      max: holds.length ? holds[holds.length - 1]! : null,
    },
    holdTimeBuckets: BUCKETS.map(([label, upper], i) => ({
      label,
      count: holds.filter((h) => h < upper && h >= (i === 0 ? 0 : BUCKETS[i - 1]![1])).length,
    })),
    takeovers: events.filter((e) => e.event === 'took-over').sort(newestFirst),
    failures: events
      .filter((e) => (e.event === 'released' && e.outcome === 'error') || e.event === 'lost')
      .sort(newestFirst),
    forceReleases: events
      .filter((e) => ['force-released', 'force-release-refused', 'force-release-failed'].includes(e.event))
      .sort(newestFirst),
    // as the lock's history says it: a generation Lockboard released was not deleted outside it
    deletedOutside: [...outsideDeletions(events)].sort(newestFirst),
  };
}
