// Lock state for /api/metrics, set on prom-client gauges at each scrape from the sources' indexes: locks per
// source by health, seconds since each lock's last refresh, the longest held, and whether each source could be read.
// Each scrape has gauges of its own in a registry of its own: a scoped scrape never shows another's values, and the
// process-wide counters (requests, streams, releases of every lock) are added only for a scraper of every lock.
import 'server-only';
import { Gauge, Registry } from 'prom-client';
import { LOCK_HEALTHS as HEALTHS, type LockHealth, type LockInfo } from '@/lib/lock';
import { metrics } from './metrics';
import { VERDICTS, type VerdictCounts } from '@/lib/lock/verdict/verdict';
import type { Source } from '../sources';

export const MAX_PER_LOCK_SERIES = 1_000;

/** A source's counts by health over every lock (its index), and the first locks by name for the per-lock series. */
export type SourceListing =
  | {
      source: Source;
      locks: LockInfo[];
      counts: Record<LockHealth, number>;
      verdicts?: VerdictCounts;
      serverTime: string;
    }
  | { source: Source; error: string };

function build(registry: Registry) {
  const registers = [registry];
  const where = ['store', 'bucket', 'prefix'] as const;
  return {
    locks: new Gauge({
      name: 'lockboard_locks',
      help: 'Locks in each configured source (bucket and prefix), by health.',
      labelNames: [...where, 'health'] as const,
      registers,
    }),
    byVerdict: new Gauge({
      name: 'lockboard_locks_by_verdict',
      help: "Held locks in each configured source by their holder's verdict (gone, stalled, alive, unknown).",
      labelNames: [...where, 'verdict'] as const,
      registers,
    }),
    sinceRefresh: new Gauge({
      name: 'lockboard_lock_seconds_since_refresh',
      help: `Seconds since each lock was last refreshed (first ${MAX_PER_LOCK_SERIES} per source).`,
      labelNames: [...where, 'lock', 'format', 'health'] as const,
      registers,
    }),
    up: new Gauge({
      name: 'lockboard_source_up',
      help: 'Whether the last scrape could list the source (1) or not (0: unreachable, no permission, missing table).',
      labelNames: [...where] as const,
      registers,
    }),
    held: new Gauge({
      name: 'lockboard_lock_held_seconds',
      help: 'Seconds each lock has been held, by address and verdict (opt-in: LOCKBOARD_LOCK_GAUGE locks, the longest held first).',
      labelNames: ['address', 'verdict'] as const,
      registers,
    }),
  };
}

/** One scrape's lock gauges, in a registry of their own. */
export function scrapeGauges() {
  const registry = new Registry();
  return { registry, ...build(registry) };
}
type ScrapeGauges = ReturnType<typeof scrapeGauges>;

/**
 * Sets this scrape's lock-state gauges from its listings and renders them, with every process-wide metric of this
 * replica only for `processWide` (the metrics token, or a caller over every lock).
 */
export async function renderMetrics(
  listings: SourceListing[],
  gauges: ScrapeGauges,
  processWide: boolean,
): Promise<string> {
  for (const listing of listings) {
    const where = { store: listing.source.store, bucket: listing.source.bucket, prefix: listing.source.prefix };
    gauges.up.set(where, 'error' in listing ? 0 : 1);
    if ('error' in listing) continue;
    for (const health of HEALTHS) {
      gauges.locks.set({ ...where, health }, listing.counts[health]);
    }
    for (const verdict of VERDICTS) gauges.byVerdict.set({ ...where, verdict }, listing.verdicts?.[verdict] ?? 0);
    const now = Date.parse(listing.serverTime);
    for (const l of listing.locks.slice(0, MAX_PER_LOCK_SERIES)) {
      const seconds = Math.max(0, (now - Date.parse(l.updatedAt)) / 1000);
      gauges.sinceRefresh.set({ ...where, lock: l.name, format: l.format, health: l.health }, seconds);
    }
  }
  if (!processWide) return gauges.registry.metrics();
  for (const outcome of ['released', 'changed', 'refreshed', 'gone', 'not-a-lock'])
    metrics.forceReleases.inc({ outcome }, 0);
  return Registry.merge([metrics.registry, gauges.registry]).metrics();
}

export const METRICS_CONTENT_TYPE = metrics.registry.contentType;
