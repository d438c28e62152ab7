// This replica's metrics for /api/metrics, with prom-client (each replica reports its own; Prometheus sums them):
// the process metrics, listings, force-releases, and the live view (open streams, events sent, resets, feed lag, pace).
import 'server-only';
import { processWide } from '../process/process-wide';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Source } from '../sources';

function build() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'lockboard_' });
  const registers = [registry];
  return {
    registry,
    lists: new Counter({
      name: 'lockboard_store_lists_total',
      help: 'Listings (one store page each) made by this replica, by store and source.',
      labelNames: ['store', 'source'] as const,
      registers,
    }),
    listSeconds: new Histogram({
      name: 'lockboard_list_duration_seconds',
      help: 'Duration of one listing page (list call and the reads it needs), by store.',
      labelNames: ['store'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    forceReleases: new Counter({
      name: 'lockboard_force_releases_total',
      help: 'Force-release attempts through this console replica, by outcome.',
      labelNames: ['outcome'] as const,
      registers,
    }),
    streams: new Gauge({
      name: 'lockboard_live_streams',
      help: 'Lock streams (browser tabs) open on this replica.',
      registers,
    }),
    sent: new Counter({
      name: 'lockboard_live_events_sent_total',
      help: 'Events sent to browsers over lock streams, by kind (snapshot, change, reset).',
      labelNames: ['event'] as const,
      registers,
    }),
    resets: new Counter({
      name: 'lockboard_live_resets_total',
      help: 'Streams sent a reset (a reconnect, or a browser too slow to keep up) and a fresh snapshot.',
      registers,
    }),
    changes: new Counter({
      name: 'lockboard_watch_changes_total',
      help: 'Lock changes (new, changed or gone) the watchers found, by store and source.',
      labelNames: ['store', 'source'] as const,
      registers,
    }),
    feedLag: new Histogram({
      name: 'lockboard_feed_lag_seconds',
      help: 'From a change feed reporting a change (its publish time where it has one) to the lock read, by store.',
      labelNames: ['store'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers,
    }),
    feedMode: new Gauge({
      name: 'lockboard_watch_feed',
      help: 'Per watched source: 1 when a change feed drives it (label feed), 0 when it lists at its store pace.',
      labelNames: ['store', 'source', 'feed'] as const,
      registers,
    }),
    pace: new Gauge({
      name: 'lockboard_watch_interval_seconds',
      help: 'Per watched source: seconds between its listings now (a check interval while pushes are trusted, else its store pace).',
      labelNames: ['store', 'source', 'mode'] as const,
      registers,
    }),
  };
}

type Metrics = ReturnType<typeof build>;
// one set per process, however many bundles of this module the server loads
export const metrics: Metrics = processWide('metrics', build);

export function countList(store: string, source: string): void {
  metrics.lists.inc({ store, source });
}

export function countForceRelease(outcome: string): void {
  metrics.forceReleases.inc({ outcome });
}

export function observeList(store: string, seconds: number): void {
  metrics.listSeconds.observe({ store }, seconds);
}

export function countWatchEvent(source: Source, n: number): void {
  metrics.changes.inc({ store: source.store, source: source.id }, n);
}

export function countFeedLag(source: Source, seconds: number): void {
  metrics.feedLag.observe({ store: source.store }, Math.max(0, seconds));
}

const feeds = processWide('feedKinds', () => new Map<string, string>());

export function setFeedMode(source: Source, feed: string | null): void {
  const before = feeds.get(source.id);
  if (before !== undefined) metrics.feedMode.remove({ store: source.store, source: source.id, feed: before });
  feeds.set(source.id, feed ?? 'none');
  metrics.feedMode.set({ store: source.store, source: source.id, feed: feed ?? 'none' }, feed ? 1 : 0);
}

const paces = processWide('watchPaces', () => new Map<string, string>());

/** How often a source is listed now, and why (pushed: only checked; polled: at its store's pace). */
export function setWatchPace(source: Source, mode: 'pushed' | 'polled', ms: number): void {
  const before = paces.get(source.id);
  if (before !== undefined && before !== mode)
    metrics.pace.remove({ store: source.store, source: source.id, mode: before });
  paces.set(source.id, mode);
  metrics.pace.set({ store: source.store, source: source.id, mode }, ms / 1000);
}
