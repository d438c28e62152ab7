'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRouter, useSearchParams } from 'next/navigation';
import { useMemo, useState } from 'react';
import type { LockHealth, LockInfo } from '@/lib/lock/types';
import { HEALTHS } from '@/lib/health';
import { locksQuery } from '@/lib/queries';
import { ForceReleaseDialog } from './force-release-dialog';
import { HealthBadge } from './health-badge';
import { LockTable, type SortKey } from './lock-table';
import { useLocalNow, useServerNow } from './use-server-now';

interface Props {
  prefixes: string[];
  prefix: string;
  canRelease: boolean;
}

export function LocksView({ prefixes, prefix, canRelease }: Props) {
  const router = useRouter();
  const search = useSearchParams();
  const query = useQuery({ ...locksQuery(prefix), placeholderData: keepPreviousData });
  const serverNow = useServerNow(query.data?.serverTime, query.dataUpdatedAt);
  const localNow = useLocalNow();
  const [text, setText] = useState('');
  const [health, setHealth] = useState<LockHealth | null>((search.get('health') as LockHealth | null) ?? null);
  const [sort, setSort] = useState<{ key: SortKey; dir: 'asc' | 'desc' }>({ key: 'name', dir: 'asc' });
  const [releasing, setReleasing] = useState<LockInfo | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const all = useMemo(() => query.data?.locks ?? [], [query.data]);
  const counts = useMemo(() => countByHealth(all), [all]);
  const shown = useMemo(() => sortLocks(filterLocks(all, health, text), sort), [all, health, text, sort]);

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <label className="text-sm">
          Prefix
          <select
            value={prefix}
            onChange={(e) => router.push(`/locks?prefix=${encodeURIComponent(e.target.value)}`)}
            className="ml-2 rounded-md border border-zinc-300 bg-transparent px-2 py-1 font-mono dark:border-zinc-600"
          >
            {prefixes.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          Filter
          <input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="name, owner, purpose, host"
            className="ml-2 w-64 rounded-md border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-600"
          />
        </label>
        <p className="ml-auto text-xs text-zinc-500" aria-live="polite" data-testid="updated">
          {query.dataUpdatedAt
            ? `updated ${Math.max(0, Math.round((localNow - query.dataUpdatedAt) / 1000))} s ago`
            : ''}
          {query.isFetching ? ' · refreshing' : ''}
        </p>
      </div>

      <div role="group" aria-label="Filter by health" className="flex flex-wrap gap-2">
        <button
          type="button"
          aria-pressed={health === null}
          onClick={() => setHealth(null)}
          className={chip(health === null)}
        >
          All <span className="tabular">{all.length}</span>
        </button>
        {HEALTHS.map((h) => (
          <button
            key={h}
            type="button"
            aria-pressed={health === h}
            onClick={() => setHealth(health === h ? null : h)}
            className={chip(health === h)}
            data-testid={`count-${h}`}
          >
            <HealthBadge health={h} /> <span className="tabular">{counts[h]}</span>
          </button>
        ))}
      </div>

      {query.isError && (
        <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-200">
          Could not refresh the lock list: {query.error.message}
          {query.data ? ' Showing the last data received.' : ''} Retrying every few seconds.
        </div>
      )}
      {notice && (
        <div
          role="status"
          className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
        >
          {notice}
        </div>
      )}
      {query.data?.nextPageToken && (
        <p className="text-sm text-amber-700">
          Showing the first {all.length} locks under this prefix; narrow the prefix to see the rest.
        </p>
      )}

      {query.data && query.data.skipped > 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="skipped-count">
          {query.data.skipped} other object{query.data.skipped === 1 ? '' : 's'} under {prefix} skipped: data (such as
          Terraform state) or not a recognised lock. Lockboard never offers to delete them.
        </p>
      )}
      {query.data && all.length === 0 ? (
        <div className="rounded-lg border border-dashed border-zinc-300 p-10 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          <p className="font-medium">No locks under {prefix} right now.</p>
          <p>
            Locks appear here while a program, pipeline or <code>lockboard run</code> holds them.
          </p>
        </div>
      ) : shown.length === 0 && query.data ? (
        <p className="p-6 text-center text-sm text-zinc-500">No lock matches this filter.</p>
      ) : (
        <LockTable
          locks={shown}
          serverNow={serverNow}
          sort={sort}
          onSort={(key) => setSort((s) => ({ key, dir: s.key === key && s.dir === 'asc' ? 'desc' : 'asc' }))}
          canRelease={canRelease}
          onRelease={(lock) => {
            setNotice(null);
            setReleasing(lock);
          }}
        />
      )}

      {releasing && (
        <ForceReleaseDialog
          lock={releasing}
          serverNow={serverNow}
          onClose={(released) => {
            if (released) setNotice(`Released ${releasing.name} (generation ${releasing.generation}).`);
            setReleasing(null);
          }}
        />
      )}
    </section>
  );
}

function chip(active: boolean): string {
  return `inline-flex items-center gap-1 rounded-full px-2 py-1 text-sm ring-1 ring-inset ${active ? 'ring-blue-600 bg-blue-50 dark:bg-blue-950' : 'ring-zinc-300 dark:ring-zinc-700'}`;
}

function countByHealth(locks: LockInfo[]): Record<LockHealth, number> {
  const counts = Object.fromEntries(HEALTHS.map((h) => [h, 0])) as Record<LockHealth, number>;
  for (const l of locks) counts[l.health]++;
  return counts;
}

function filterLocks(locks: LockInfo[], health: LockHealth | null, text: string): LockInfo[] {
  const q = text.trim().toLowerCase();
  return locks.filter(
    (l) =>
      (!health || l.health === health) &&
      (!q || [l.name, l.identity, l.purpose, l.host].some((v) => v?.toLowerCase().includes(q))),
  );
}

const SORT_VALUE: Record<SortKey, (l: LockInfo) => string | number> = {
  name: (l) => l.name,
  owner: (l) => l.identity ?? '',
  health: (l) => HEALTHS.indexOf(l.health),
  held: (l) => -Date.parse(l.createdAt),
  refresh: (l) => -Date.parse(l.updatedAt),
  expires: (l) => (l.expiresAt ? Date.parse(l.expiresAt) : Number.MAX_SAFE_INTEGER),
  generation: (l) => Number(l.generation),
  format: (l) => l.format,
};

function sortLocks(locks: LockInfo[], sort: { key: SortKey; dir: 'asc' | 'desc' }): LockInfo[] {
  const value = SORT_VALUE[sort.key];
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...locks].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return (x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : 1) * sign;
  });
}
