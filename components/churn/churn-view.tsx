'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { formatTime } from '@/lib/text/format';
import { summaryQuery } from '@/lib/console/queries';
import { ChurnControls } from './churn-controls';
import { ChurnFigures } from './churn-figures';
import { MemoryOnlyTrails, UnreachableTrails } from './churn-parts';
import { useChurnWindow } from './use-churn-window';

export function ChurnView() {
  const picked = useChurnWindow();
  const query = useQuery({ ...summaryQuery(picked.selected), placeholderData: keepPreviousData });
  const s = query.data;
  // The window shown is the one the numbers are for: the server echoes it, and it slides with each poll
  const window = s ? { from: s.from, to: s.to } : null;

  return (
    <section className="space-y-6">
      <ChurnControls picked={picked} shown={window} />
      <p className="text-xs text-zinc-500" data-testid="window">
        {window ? `${formatTime(window.from)} → ${formatTime(window.to)}` : ''} {query.isFetching ? '· loading' : ''}
      </p>
      {query.isError && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-200">
          {query.error.message}
        </p>
      )}
      {s?.unreachable && <UnreachableTrails faults={s.unreachable} />}
      {s?.memoryOnly && <MemoryOnlyTrails trails={s.memoryOnly} />}
      {s && s.total === 0 && (
        <div className="rounded-lg border border-dashed border-zinc-300 p-8 text-center text-sm text-zinc-600 dark:border-zinc-700">
          No audit events in this window. Widen the range. Force-releases are always recorded; holders record theirs in
          their store&apos;s trail unless started with <code>audit: false</code>.
        </div>
      )}
      {s && s.total > 0 && <ChurnFigures s={s} />}
    </section>
  );
}
