'use client';
// The churn page's building blocks: a figure, a ranking, and the table of events.
import Link from 'next/link';
import type { ReactNode } from 'react';
import type { ChurnEvent, MemoryOnlyTrail, TrailFault } from '@/lib/console/churn/summary';
import { formatTime } from '@/lib/text/format';
import { lockHref } from '@/lib/console/queries';
import { SafeText } from '../ui/safe-text';

export function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-lg p-3 ring-1 ring-zinc-200 dark:ring-zinc-700">
      <div className="text-xs text-zinc-500">{label}</div>
      <div className="tabular text-xl font-semibold" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

/** A ranking's row: the label, the figure, and for a lock the bucket its link opens it in. */
type RankRow = [label: string, value: string, bucket?: string, source?: string];

export function Ranking({ title, rows, plain = false }: { title: string; rows: RankRow[]; plain?: boolean }) {
  return (
    // min-w-0: a grid cell may shrink below its longest name (on a phone the count stays on screen)
    <div className="min-w-0">
      <h2 className="mb-2 text-sm font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-500">None in this window.</p>
      ) : (
        <ol className="space-y-1 text-sm" data-testid="churn-list" data-list={title}>
          {rows.map(([k, v, bucket, source]) => (
            <li key={`${source ?? ''}\u0000${k}`} className="flex justify-between gap-2">
              {plain ? (
                <span>{k}</span>
              ) : (
                <Link
                  prefetch={false}
                  href={lockHref(k, bucket)}
                  title={source}
                  className="min-w-0 truncate font-mono text-blue-700 hover:underline dark:text-blue-300"
                >
                  <SafeText text={k} />
                  {source && <span className="ml-1 font-sans text-xs text-zinc-500">{source}</span>}
                </Link>
              )}
              <span className="tabular shrink-0">{v}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

type EventColumns = [string, (e: ChurnEvent) => string][];

export function EventTable({
  title,
  events,
  columns,
  testId,
}: {
  title: string;
  events: ChurnEvent[];
  columns: EventColumns;
  testId: string;
}) {
  return (
    <div className="min-w-0">
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
                <th>Source</th>
                {columns.map(([h]) => (
                  <th key={h}>{h}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {events.slice(0, 500).map((e) => (
                <EventRow key={e.id} event={e} columns={columns} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** One event: when (marked when only its writer reported the time), its lock, its source, and the table's columns. */
function EventRow({ event: e, columns }: { event: ChurnEvent; columns: EventColumns }) {
  return (
    <tr className="border-t border-zinc-100 dark:border-zinc-800">
      <td className="whitespace-nowrap py-1">
        {formatTime(e.at)}
        {e.at_from === 'reported' ? (
          <span
            className="ml-1 text-xs text-zinc-500"
            title="This store keeps no time for its records: the time its writer reported"
          >
            (as reported)
          </span>
        ) : null}
      </td>
      <td>
        <Link
          prefetch={false}
          href={lockHref(e.lock, e.bucket)}
          className="break-all font-mono text-blue-700 hover:underline dark:text-blue-300"
        >
          <SafeText text={e.lock} />
        </Link>
      </td>
      <td className="break-all px-2 text-xs text-zinc-500">{e.source ?? ''}</td>
      {columns.map(([h, f]) => (
        <td key={h}>
          <SafeText text={f(e)} />
        </td>
      ))}
    </tr>
  );
}

/** Notes on some trails, one a line, each keyed by the sources it names: amber, announced as a status. */
function TrailNotes<T extends { sources: string[] }>(p: { notes: T[]; testId: string; line: (n: T) => ReactNode }) {
  if (p.notes.length === 0) return null;
  return (
    <ul
      role="status"
      data-testid={p.testId}
      className="space-y-1 rounded-md bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100"
    >
      {p.notes.map((n) => (
        <li key={n.sources.join(',')}>{p.line(n)}</li>
      ))}
    </ul>
  );
}

/** Trails that could not be read: their sources, the store's words, and when they were last read. */
export function UnreachableTrails({ faults }: { faults: TrailFault[] }) {
  return (
    <TrailNotes
      notes={faults}
      testId="churn-unreachable"
      line={(f) => (
        <>
          <strong>{f.sources.join(', ')}</strong> unreachable ({f.store}): {f.message}.{' '}
          {f.lastGoodAt ? `Last good read ${formatTime(f.lastGoodAt)}; ` : 'Not read since the console started; '}
          the figures below leave its events out.
        </>
      )}
    />
  );
}

/** Trails their stores keep in memory only: what they hold now is shown, and a restart of their server loses it. */
export function MemoryOnlyTrails({ trails }: { trails: MemoryOnlyTrail[] }) {
  return (
    <TrailNotes
      notes={trails}
      testId="churn-memory-only"
      line={(t) => (
        <>
          <strong>{t.sources.join(', ')}</strong>: audit trail in memory only ({t.store}). {t.message} What is shown
          here holds only what this server kept since it last started.
        </>
      )}
    />
  );
}
