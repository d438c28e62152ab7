// Churn arithmetic over audit events: pure functions, used by the summary route and unit-tested on their own.
import type { AuditRecord } from '@/lib/lock/audit-record';
import type { AuditEventKind } from '@/lib/lock/audit-record';

export const EVENT_KINDS: AuditEventKind[] = [
  'acquired',
  'took-over',
  'released',
  'lost',
  'force-release-requested',
  'force-released',
  'force-release-refused',
  'observed-created',
  'observed-deleted',
  'deleted-outside',
];

export interface HourBucket {
  hour: string;
  counts: Record<AuditEventKind, number>;
}

export interface ChurnSummary {
  from: string;
  to: string;
  total: number;
  perHour: HourBucket[];
  topByAcquisitions: { lock: string; acquisitions: number }[];
  topByHeldTime: { lock: string; heldMs: number }[];
  holdTime: { count: number; p50: number | null; p95: number | null; max: number | null };
  holdTimeBuckets: { label: string; count: number }[];
  takeovers: AuditRecord[];
  failures: AuditRecord[];
  forceReleases: AuditRecord[];
  /** Lockboard locks deleted with no Lockboard release (GCS notifications), newest first. */
  deletedOutside: AuditRecord[];
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
export function withoutDuplicates(events: AuditRecord[]): AuditRecord[] {
  return events.filter(
    (e) => !((e.event === 'observed-created' || e.event === 'observed-deleted') && e.format === 'lockboard'),
  );
}

export function summarise(all: AuditRecord[], from: Date, to: Date, top = 10): ChurnSummary {
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
      acquisitions.set(e.lock, (acquisitions.get(e.lock) ?? 0) + 1);
    if ((e.event === 'released' || e.event === 'lost') && e.held_ms !== undefined) {
      holds.push(e.held_ms);
      held.set(e.lock, (held.get(e.lock) ?? 0) + e.held_ms);
    }
  }
  // Foreign locks' hold times: created → deleted, as observed
  const created = new Map<string, number>();
  for (const e of events) {
    if (e.event === 'observed-created' && e.generation) created.set(`${e.lock}#${e.generation}`, Date.parse(e.at));
    if (e.event === 'observed-deleted' && e.generation) {
      const start = created.get(`${e.lock}#${e.generation}`);
      if (start !== undefined) {
        const ms = Date.parse(e.at) - start;
        holds.push(ms);
        held.set(e.lock, (held.get(e.lock) ?? 0) + ms);
      }
    }
  }
  holds.sort((a, b) => a - b);
  const newestFirst = (a: AuditRecord, b: AuditRecord) => (a.at < b.at ? 1 : -1);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    total: events.length,
    perHour: [...hours.values()],
    topByAcquisitions: [...acquisitions]
      .map(([lock, n]) => ({ lock, acquisitions: n }))
      .sort((a, b) => b.acquisitions - a.acquisitions || (a.lock < b.lock ? -1 : 1))
      .slice(0, top),
    topByHeldTime: [...held]
      .map(([lock, ms]) => ({ lock, heldMs: ms }))
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
      .filter((e) => e.event === 'force-released' || e.event === 'force-release-refused')
      .sort(newestFirst),
    deletedOutside: events.filter((e) => e.event === 'deleted-outside').sort(newestFirst),
  };
}

export interface Tenure {
  generation: string;
  identity?: string;
  from: string;
  to?: string;
  ended: 'held' | 'released' | 'failed' | 'lost' | 'taken over' | 'force-released' | 'deleted outside';
  heldMs?: number;
  error?: string;
}

/** The holders of one lock over time: one entry per generation, newest first. */
export function timeline(events: AuditRecord[]): Tenure[] {
  const byGeneration = new Map<string, Tenure>();
  const ordered = [...events].sort((a, b) => (a.at < b.at ? -1 : 1));
  for (const e of ordered) {
    if (!e.generation) continue;
    if (e.event === 'acquired' || e.event === 'took-over') {
      byGeneration.set(e.generation, { generation: e.generation, identity: e.identity, from: e.at, ended: 'held' });
      if (e.event === 'took-over' && e.previous_generation) {
        const previous = byGeneration.get(e.previous_generation);
        if (previous && previous.ended === 'held') Object.assign(previous, { ended: 'taken over', to: e.at });
      }
      continue;
    }
    // A foreign lock's tenure starts at its observed creation (a Lockboard lock's own `acquired` came first)
    if (e.event === 'observed-created') {
      if (!byGeneration.has(e.generation))
        byGeneration.set(e.generation, { generation: e.generation, identity: e.identity, from: e.at, ended: 'held' });
      continue;
    }
    const tenure = byGeneration.get(e.generation);
    if (!tenure) continue;
    // An unconfirmed release (its DELETE response was lost) never overrides a confirmed one of the same generation
    const releasedEvent = e.event === 'released' || e.event === 'force-released';
    if (releasedEvent && e.delete_confirmed === 'false' && tenure.ended !== 'held' && tenure.ended !== 'lost') continue;
    if (e.event === 'released')
      Object.assign(tenure, {
        ended: e.outcome === 'error' ? 'failed' : 'released',
        to: e.at,
        heldMs: e.held_ms,
        error: e.error,
      });
    else if (e.event === 'lost' && tenure.ended === 'held')
      Object.assign(tenure, { ended: 'lost', to: e.at, heldMs: e.held_ms });
    else if (e.event === 'force-released') Object.assign(tenure, { ended: 'force-released', to: e.at });
    else if (e.event === 'deleted-outside') Object.assign(tenure, { ended: 'deleted outside', to: e.at });
    else if (e.event === 'observed-deleted' && tenure.ended === 'held')
      Object.assign(tenure, { ended: 'released', to: e.at });
  }
  return [...byGeneration.values()].reverse();
}

export function toCsv(events: AuditRecord[]): string {
  const columns = [
    'at',
    'event',
    'lock',
    'identity',
    'generation',
    'previous_identity',
    'stale_ms',
    'held_ms',
    'outcome',
    'error',
    'operator',
    'reason',
    'delete_confirmed',
    'format',
    'verified',
    'reported_event',
  ] as const;
  const cell = (v: unknown) => {
    const s = v === undefined ? '' : String(v);
    // Spreadsheet formula injection (OWASP): a leading = + - @ TAB or CR is neutralised with an apostrophe.
    const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
    return /[",\n\r\t']/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return [columns.join(','), ...events.map((e) => columns.map((c) => cell(e[c])).join(','))].join('\n') + '\n';
}
