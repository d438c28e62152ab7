'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import type { AuditRecord } from '@/lib/lock/audit-record';
import { formatDuration, formatTime } from '@/lib/format';
import { lockHref, RANGES, summaryQuery, windowFor, type ChurnWindow, type RangeKey } from '@/lib/queries';
import { ChurnChart } from './churn-chart';

const MAX_WINDOW_MS = 31 * 86_400_000;

export function ChurnView() {
  const [selected, setSelected] = useState<ChurnWindow>({ range: '24h' });
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
          key={fieldsFor}
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
      {s && s.total === 0 && (
        <div className="rounded-lg border border-dashed border-zinc-300 p-8 text-center text-sm text-zinc-600 dark:border-zinc-700">
          No audit events in this window. Widen the range, or check that clients write audit events (the lock core does
          unless started with <code>audit: false</code>) to this bucket&apos;s audit prefix.
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
              rows={s.topByAcquisitions.map((r) => [r.lock, String(r.acquisitions)])}
            />
            <Ranking
              title="Top locks by total held time"
              rows={s.topByHeldTime.map((r) => [r.lock, formatDuration(r.heldMs)])}
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
              ['Operator', (e) => e.operator ?? ''],
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

/** Why a custom range cannot be applied, or null. Values are datetime-local strings read as UTC. */
export function rangeProblem(from: string, to: string): string | null {
  if (!from || !to) return 'Enter both From and To (UTC), or choose Last 1h / 24h / 7d.';
  const a = Date.parse(`${from}Z`);
  const b = Date.parse(`${to}Z`);
  if (Number.isNaN(a) || Number.isNaN(b)) return 'From and To must be dates and times.';
  if (a >= b) return 'From must be before To.';
  if (b - a > MAX_WINDOW_MS) return 'Choose at most 31 days.';
  return null;
}

function CustomRange({
  initial,
  onApply,
}: {
  initial: { from: string; to: string };
  onApply: (w: { from: string; to: string }) => void;
}) {
  const [from, setFrom] = useState(initial.from.slice(0, 16));
  const [to, setTo] = useState(initial.to.slice(0, 16));
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="flex flex-wrap items-end gap-2 text-sm"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const why = rangeProblem(from, to);
        setProblem(why);
        if (!why) onApply({ from: new Date(`${from}Z`).toISOString(), to: new Date(`${to}Z`).toISOString() });
      }}
    >
      <TimeInput label="From (UTC)" value={from} onChange={setFrom} invalid={problem !== null} />
      <TimeInput label="To (UTC)" value={to} onChange={setTo} invalid={problem !== null} />
      <button type="submit" className="rounded-md px-3 py-1 ring-1 ring-inset ring-zinc-300 dark:ring-zinc-700">
        Apply
      </button>
      {problem && (
        <p role="alert" id="range-problem" className="w-full text-red-700 dark:text-red-300">
          {problem} The numbers below are still for the previous window.
        </p>
      )}
    </form>
  );
}

function TimeInput({
  label,
  value,
  onChange,
  invalid,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  invalid: boolean;
}) {
  return (
    <label>
      {label}
      <input
        type="datetime-local"
        value={value}
        aria-invalid={invalid}
        aria-describedby={invalid ? 'range-problem' : undefined}
        onChange={(e) => onChange(e.target.value)}
        className="ml-1 rounded border border-zinc-300 bg-transparent px-1 dark:border-zinc-600"
      />
    </label>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-lg p-3 ring-1 ring-zinc-200 dark:ring-zinc-700">
      <div className="text-xs text-zinc-500">{label}</div>
      <div className="tabular text-xl font-semibold" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

function Ranking({ title, rows, plain = false }: { title: string; rows: [string, string][]; plain?: boolean }) {
  return (
    <div>
      <h2 className="mb-2 text-sm font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-500">None in this window.</p>
      ) : (
        <ol className="space-y-1 text-sm" data-testid="churn-list" data-list={title}>
          {rows.map(([k, v]) => (
            <li key={k} className="flex justify-between gap-2">
              {plain ? (
                <span>{k}</span>
              ) : (
                <Link
                  prefetch={false}
                  href={lockHref(k)}
                  className="truncate font-mono text-blue-700 hover:underline dark:text-blue-300"
                >
                  {k}
                </Link>
              )}
              <span className="tabular">{v}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function EventTable({
  title,
  events,
  columns,
  testId,
}: {
  title: string;
  events: AuditRecord[];
  columns: [string, (e: AuditRecord) => string][];
  testId: string;
}) {
  return (
    <div>
      <h2 className="mb-2 text-sm font-semibold">
        {title} ({events.length})
      </h2>
      {events.length === 0 ? (
        <p className="text-sm text-zinc-500">None in this window.</p>
      ) : (
        <div className="max-h-80 overflow-auto" data-testid="churn-list" data-list={testId}>
          <table className="w-full text-left text-sm" data-testid={testId}>
            <thead className="text-xs uppercase text-zinc-500">
              <tr>
                <th className="py-1">When</th>
                <th>Lock</th>
                {columns.map(([h]) => (
                  <th key={h}>{h}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {events.slice(0, 500).map((e) => (
                <tr key={e.id} className="border-t border-zinc-100 dark:border-zinc-800">
                  <td className="whitespace-nowrap py-1">{formatTime(e.at)}</td>
                  <td>
                    <Link
                      prefetch={false}
                      href={lockHref(e.lock)}
                      className="font-mono text-blue-700 hover:underline dark:text-blue-300"
                    >
                      {e.lock}
                    </Link>
                  </td>
                  {columns.map(([h, f]) => (
                    <td key={h}>{f(e)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
