'use client';
// The churn page's building blocks: a figure, a ranking, and the table of events.
import Link from 'next/link';
import type { AuditRecord } from '@/lib/lock/audit-record';
import { formatTime } from '@/lib/format';
import { lockHref } from '@/lib/queries';
import { SafeText } from './safe-text';

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

export function Ranking({ title, rows, plain = false }: { title: string; rows: [string, string][]; plain?: boolean }) {
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
                  <SafeText text={k} />
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

export function EventTable({
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
                      <SafeText text={e.lock} />
                    </Link>
                  </td>
                  {columns.map(([h, f]) => (
                    <td key={h}>
                      <SafeText text={f(e)} />
                    </td>
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
