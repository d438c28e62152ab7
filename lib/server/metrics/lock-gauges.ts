// Lock state for /api/metrics, set on prom-client gauges at each scrape from the sources' indexes: locks per
// source by health, seconds since each lock's last refresh, and whether each source could be read at all.
import 'server-only';
import { processWide } from '../process/process-wide';
import { Gauge } from 'prom-client';
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

function build() {
  const registers = [metrics.registry];
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
  };
}

const gauges = processWide('lockGauges', build);

/** Sets the lock-state gauges from this scrape's listings and renders every metric of this replica. */
export async function renderMetrics(listings: SourceListing[]): Promise<string> {
  gauges.locks.reset();
  gauges.byVerdict.reset();
  gauges.sinceRefresh.reset();
  gauges.up.reset();
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
  for (const outcome of ['released', 'changed', 'refreshed', 'gone', 'not-a-lock'])
    metrics.forceReleases.inc({ outcome }, 0);
  return metrics.registry.metrics();
}

export const METRICS_CONTENT_TYPE = metrics.registry.contentType;
