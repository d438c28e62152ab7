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

  // GCS series keep the labels they always had; other stores add theirs
  const where = (s: Source) =>
    `${s.store === 'gcs' ? '' : `store="${s.store}",`}bucket="${label(s.bucket)}",prefix="${label(s.prefix)}"`;
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
  metric(
    'lockboard_gcs_requests_total',
    'counter',
    'Cloud Storage requests made by this console replica, by operation.',
  );
  for (const [op, n] of counters.gcsRequests) out.push(`lockboard_gcs_requests_total{operation="${label(op)}"} ${n}`);
  metric('lockboard_list_duration_seconds', 'summary', 'Duration of lock listings (objects.list page + inspection).');
  out.push(`lockboard_list_duration_seconds_sum ${counters.listSeconds.sum.toFixed(6)}`);
  out.push(`lockboard_list_duration_seconds_count ${counters.listSeconds.count}`);
  return out.join('\n') + '\n';
}
