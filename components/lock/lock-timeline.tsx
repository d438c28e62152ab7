'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { timeline, type Tenure } from '@/lib/console/churn/timeline';
import { formatDuration, formatTime } from '@/lib/text/format';
import { HISTORY_PAGE, lockEventsQuery } from '@/lib/console/queries';
import { SafeText } from '../ui/safe-text';
import { MemoryOnlyTrails } from '../churn/churn-parts';

const ENDED_STYLE: Record<string, string> = {
  held: 'text-emerald-700 dark:text-emerald-300',
  released: 'text-zinc-700 dark:text-zinc-300',
  failed: 'text-red-700 dark:text-red-300',
  lost: 'text-red-700 dark:text-red-300',
  'taken over': 'text-amber-700 dark:text-amber-300',
  'force-released': 'text-violet-700 dark:text-violet-300',
  'deleted outside': 'text-red-700 dark:text-red-300',
  'ended, not recorded': 'text-zinc-600 dark:text-zinc-400',
};

/** Who held this lock from when to when, and how each tenure ended (last 7 days of audit events). */
export function LockTimeline({
  name,
  bucket,
  trail,
  free,
}: {
  name: string;
  bucket?: string;
  trail?: string;
  /** Nothing holds the lock now: no tenure is shown as still held. */
  free?: boolean;
}) {
  const [limit, setLimit] = useState(HISTORY_PAGE);
  const query = useQuery({ ...lockEventsQuery(name, bucket, limit), placeholderData: keepPreviousData });
  const tenures = query.data ? timeline(query.data.events, { free }) : [];
  const more = query.data ? query.data.total - query.data.events.length : 0;
  return (
    <section aria-labelledby="timeline-title" className="space-y-2">
      <h2 id="timeline-title" className="text-lg font-semibold">
        Holders, last 7 days
      </h2>
      {query.isError && <p role="alert">Could not read the audit trail: {query.error.message}</p>}
      {query.data?.memoryOnly && <MemoryOnlyTrails trails={query.data.memoryOnly} />}
      {query.data && tenures.length === 0 && (
        <p className="text-sm text-zinc-500">
          {query.data.total > 0
            ? `No holder began or ended in the last 7 days; this lock's ${query.data.total} other audit event${query.data.total === 1 ? '' : 's'} (requested or refused releases) are on the churn page.`
            : 'No audit events for this lock in the last 7 days.'}{' '}
          {trail ?? 'Force-releases and Lockboard holders’ events are recorded in the store’s audit trail.'}
        </p>
      )}
      {tenures.length > 0 && <TenureTable tenures={tenures} />}
      {more > 0 && (
        <OlderHolders
          shown={query.data!.events.length}
          total={query.data!.total}
          limit={limit}
          fetching={query.isFetching}
          onMore={() => setLimit((l) => Math.min(l * 4, 5_000))}
        />
      )}
    </section>
  );
}

function TenureTable({ tenures }: { tenures: Tenure[] }) {
  return (
    // a phone scrolls the history sideways inside its own box (reachable by keyboard), never the whole page
    <div className="overflow-x-auto" role="region" aria-label="Holders, newest first" tabIndex={0}>
      <table className="w-full text-left text-sm" data-testid="timeline">
        <thead className="text-xs uppercase text-zinc-500">
          <tr>
            <th className="py-1">Holder</th>
            <th>From</th>
            <th>To</th>
            <th>Held</th>
            <th>Ended</th>
            <th>Generation</th>
          </tr>
        </thead>
        <tbody>
          {tenures.map((t) => (
            <tr
              key={`${t.generation}@${t.from ?? ''}${t.to ?? ''}`}
              className="border-t border-zinc-100 dark:border-zinc-800"
            >
              <td className="py-1">{t.identity !== undefined ? <SafeText text={t.identity} /> : 'unknown'}</td>
              <td>{t.from ? formatTime(t.from) : 'not recorded'}</td>
              <td>{t.to ? formatTime(t.to) : '—'}</td>
              <td className="tabular">{heldText(t)}</td>
              <td className={ENDED_STYLE[t.ended]} title={t.error}>
                {t.ended}
                {t.error ? `: ${t.error}` : ''}
              </td>
              <td className="font-mono text-xs">{t.generation || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** How long a tenure lasted: as recorded, else from its two ends, else still running. */
function heldText(t: Tenure): string {
  return t.heldMs !== undefined
    ? formatDuration(t.heldMs)
    : t.to && t.from
      ? formatDuration(Date.parse(t.to) - Date.parse(t.from))
      : '—';
}

/** More events than shown: a button for four times as many, up to 5 000 (then the churn page's export). */
function OlderHolders(p: { shown: number; total: number; limit: number; fetching: boolean; onMore: () => void }) {
  return (
    <p
      className="flex flex-wrap items-center gap-3 text-sm text-zinc-600 dark:text-zinc-400"
      data-testid="history-more"
    >
      Showing the newest {p.shown} of {p.total} events of the last 7 days.
      <button
        type="button"
        onClick={p.onMore}
        disabled={p.limit >= 5_000 || p.fetching}
        className="rounded-md px-3 py-1 ring-1 ring-inset ring-zinc-300 disabled:opacity-50 dark:ring-zinc-700"
      >
        {p.limit >= 5_000 ? 'Export the rest from the churn page' : 'Show older holders'}
      </button>
    </p>
  );
}
