'use client';
// The churn page's controls: the last hour, day or week, a window of one's own, and the window's events as CSV.
import { churnWindowQuery } from '@/lib/console/churn/window';
import { RANGES, windowFor, type RangeKey } from '@/lib/console/queries';
import { CustomRange } from './churn-range';
import type { useChurnWindow } from './use-churn-window';

export function ChurnControls({
  picked,
  shown,
}: {
  picked: ReturnType<typeof useChurnWindow>;
  /** The window the numbers are for (the server's echo), for the CSV export. */
  shown: { from: string; to: string } | null;
}) {
  const { selected, setSelected, fieldsFor, choose } = picked;
  const range = selected.range;
  return (
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
        onApply={(range) => setSelected({ range: 'custom', ...range })}
      />
      {shown && (
        <a href={csvHref(shown)} className="ml-auto text-sm text-blue-700 hover:underline dark:text-blue-300" download>
          Export CSV
        </a>
      )}
    </div>
  );
}

/** The audit trail of a window as CSV. */
function csvHref(w: { from: string; to: string }): string {
  return `/api/audit?format=csv&from=${encodeURIComponent(w.from)}&to=${encodeURIComponent(w.to)}`;
}
