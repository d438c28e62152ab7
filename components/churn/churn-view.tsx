'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usePathname, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { churnWindowOf, churnWindowQuery } from '@/lib/console/churn/window';
import { formatDuration, formatTime } from '@/lib/text/format';
import { RANGES, summaryQuery, windowFor, type ChurnWindow, type RangeKey } from '@/lib/console/queries';
import { ChurnChart } from './churn-chart';
import { EventTable, Ranking, Stat, UnreachableTrails } from './churn-parts';
import { CustomRange } from './churn-range';

export function ChurnView() {
  // The window lives in the address: shareable, kept on reload, undone by Back
  const pathname = usePathname();
  const selected = churnWindowOf(useSearchParams());
  const setSelected = (w: ChurnWindow) => globalThis.history.pushState(null, '', `${pathname}${churnWindowQuery(w)}`);
  // Bumped by the range buttons so the From/To fields show the range just chosen
  const [fieldsFor, setFieldsFor] = useState(0);
  const range = selected.range;
  const query = useQuery({ ...summaryQuery(selected), placeholderData: keepPreviousData });
  const s = query.data;
  // The window shown is the one the numbers are for: the server echoes it, and it slides with each poll
  const window = s ? { from: s.from, to: s.to } : null;
  const choose = (key: RangeKey) => {
    setSelected({ range: key });
    setFieldsFor((n) => n + 1);
  };
  const csvHref = window
    ? `/api/audit?format=csv&from=${encodeURIComponent(window.from)}&to=${encodeURIComponent(window.to)}`
    : undefined;

  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-end gap-3">
        <div role="group" aria-label="Time range" className="flex gap-1">
          {(Object.keys(RANGES) as RangeKey[]).map((key) => (
            <button
              key={key}
              type="button"
              aria-pressed={range === key}
              onClick={() => choose(key)}
              className={`rounded-md px-3 py-1 text-sm ring-1 ring-inset ${range === key ? 'bg-blue-600 text-white ring-blue-600' : 'ring-zinc-300 dark:ring-zinc-700'}`}
            >
              Last {key}
            </button>
          ))}
        </div>
        <CustomRange
          // the address (and so `selected`) follows a range button a render later: the fields follow both
          key={`${fieldsFor}${churnWindowQuery(selected)}`}
          initial={selected.range === 'custom' ? selected : windowFor(selected.range)}
          onApply={(w) => setSelected({ range: 'custom', ...w })}
        />
        {csvHref && (
          <a href={csvHref} className="ml-auto text-sm text-blue-700 hover:underline dark:text-blue-300" download>
            Export CSV
          </a>
        )}
      </div>
      <p className="text-xs text-zinc-500" data-testid="window">
        {window ? `${formatTime(window.from)} → ${formatTime(window.to)}` : ''} {query.isFetching ? '· loading' : ''}
      </p>
      {query.isError && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-200">
          {query.error.message}
        </p>
      )}
      {s?.unreachable && <UnreachableTrails faults={s.unreachable} />}
      {s && s.total === 0 && (
        <div className="rounded-lg border border-dashed border-zinc-300 p-8 text-center text-sm text-zinc-600 dark:border-zinc-700">
          No audit events in this window. Widen the range. Force-releases are always recorded; holders record theirs in
          their store&apos;s trail unless started with <code>audit: false</code>.
        </div>
      )}
      {s && s.total > 0 && (
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
            <Ranking
              title="Hold-time distribution"
              rows={s.holdTimeBuckets.map((b) => [b.label, String(b.count)])}
              plain
            />
          </div>
          <EventTable
            title="Takeovers (crashed holders)"
            testId="takeovers"
            events={s.takeovers}
            columns={[
              ['Previous holder', (e) => e.previous_identity ?? 'unknown'],
              ['New holder', (e) => e.identity ?? ''],
              ['After expiry', (e) => (e.stale_ms !== undefined ? formatDuration(e.stale_ms) : '—')],
            ]}
          />
          <EventTable
            title="Failures recorded by withLock / lost locks"
            testId="failures"
            events={s.failures}
            columns={[
              ['Holder', (e) => e.identity ?? ''],
              ['What', (e) => (e.event === 'lost' ? 'lock lost' : (e.error ?? 'error'))],
            ]}
          />
          <EventTable
            title="Force-releases"
            testId="force-releases"
            events={s.forceReleases}
            columns={[
              [
                'Operator',
                (e) => (e.verified ? (e.operator ?? '') : `${e.operator ?? '?'} (reported by a holder, not signed)`),
              ],
              ['Reason', (e) => e.reason ?? ''],
              ['Generation', (e) => e.generation ?? ''],
              ['Outcome', (e) => (e.delete_confirmed === 'false' ? 'released (unconfirmed)' : (e.outcome ?? e.event))],
            ]}
          />
          <EventTable
            title="Deleted outside Lockboard (GCS notifications)"
            testId="deleted-outside"
            events={s.deletedOutside}
            columns={[
              ['Holder at the time', (e) => e.identity ?? 'unknown'],
              ['Generation', (e) => e.generation ?? ''],
            ]}
          />
        </>
      )}
    </section>
  );
}
