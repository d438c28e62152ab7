'use client';
// The churn page's figures for a window with events: totals, events per hour, rankings, and the tables of events.
import type { ChurnSummary } from '@/lib/console/churn/summary';
import { formatDuration } from '@/lib/text/format';
import { ChurnChart } from './churn-chart';
import { ChurnEventTables } from './churn-event-tables';
import { Ranking, Stat } from './churn-parts';

export function ChurnFigures({ s }: { s: ChurnSummary }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-4">
        <Stat label="Events" value={String(s.total)} testId="stat-events" />
        <Stat label="Takeovers of crashed holders" value={String(s.takeovers.length)} testId="stat-takeovers" />
        <Stat label="Failures" value={String(s.failures.length)} testId="stat-failures" />
        <Stat
          label="Hold time p50 / p95 / max"
          value={[s.holdTime.p50, s.holdTime.p95, s.holdTime.max]
            .map((v) => (v === null ? '—' : formatDuration(v)))
            .join(' / ')}
        />
      </div>
      <ChurnChart perHour={s.perHour} />
      <div className="grid gap-6 lg:grid-cols-3">
        <Ranking
          title="Top locks by acquisitions"
          rows={s.topByAcquisitions.map((r) => [r.lock, String(r.acquisitions), r.bucket, r.source])}
        />
        <Ranking
          title="Top locks by total held time"
          rows={s.topByHeldTime.map((r) => [r.lock, formatDuration(r.heldMs), r.bucket, r.source])}
        />
        <Ranking title="Hold-time distribution" rows={s.holdTimeBuckets.map((b) => [b.label, String(b.count)])} plain />
      </div>
      <ChurnEventTables s={s} />
    </>
  );
}
