// Prometheus text exposition of lock state (from the shared listing cache) and this replica's counters.
import 'server-only';
import { LOCK_HEALTHS as HEALTHS, type LockInfo } from '@/lib/lock';
import { counters } from './metrics';
import type { Source } from './sources';

const MAX_PER_LOCK_SERIES = 1_000;

const label = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export type SourceListing = { source: Source; locks: LockInfo[]; serverTime: string };

export function renderMetrics(listings: SourceListing[]): string {
  const out: string[] = [];
  const metric = (name: string, type: string, help: string) =>
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);

  const where = (s: Source) => `store="${s.store}",bucket="${label(s.bucket)}",prefix="${label(s.prefix)}"`;
  metric('lockboard_locks', 'gauge', 'Locks in each configured source (bucket and prefix), by health.');
  for (const { source, locks } of listings) {
    for (const health of HEALTHS) {
      out.push(
        `lockboard_locks{${where(source)},health="${health}"} ${locks.filter((l) => l.health === health).length}`,
      );
    }
  }
  metric(
    'lockboard_lock_seconds_since_refresh',
    'gauge',
    `Seconds since each lock was last refreshed (first ${MAX_PER_LOCK_SERIES} per source).`,
  );
  for (const { source, locks, serverTime } of listings) {
    const now = Date.parse(serverTime);
    for (const l of locks.slice(0, MAX_PER_LOCK_SERIES)) {
      const seconds = Math.max(0, (now - Date.parse(l.updatedAt)) / 1000);
      out.push(
        `lockboard_lock_seconds_since_refresh{${where(source)},lock="${label(l.name)}",format="${label(l.format)}",health="${l.health}"} ${seconds.toFixed(3)}`,
      );
    }
  }
  metric(
    'lockboard_force_releases_total',
    'counter',
    'Force-release attempts through this console replica, by outcome.',
  );
  for (const outcome of ['released', 'changed', 'refreshed', 'gone', 'not-a-lock']) {
    out.push(`lockboard_force_releases_total{outcome="${outcome}"} ${counters.forceReleases.get(outcome) ?? 0}`);
  }
  metric('lockboard_store_lists_total', 'counter', 'Listings (one store page each) made by this replica, by source.');
  for (const { store, source, n } of counters.lists.values())
    out.push(`lockboard_store_lists_total{store="${label(store)}",source="${label(source)}"} ${n}`);
  metric('lockboard_list_duration_seconds', 'summary', 'Duration of lock listings (objects.list page + inspection).');
  out.push(`lockboard_list_duration_seconds_sum ${counters.listSeconds.sum.toFixed(6)}`);
  out.push(`lockboard_list_duration_seconds_count ${counters.listSeconds.count}`);
  return out.join('\n') + '\n';
}
