'use client';

import { useRouter } from 'next/navigation';
import { useMemo, useRef, useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { HEALTHS, withLiveHealth } from '@/lib/health';
import { ALL_SOURCES, type SourceOption } from '@/lib/queries';
import { SuccessNotice } from './ui/notice';
import { BULK_LIMIT, BulkReleaseDialog } from './bulk-release-dialog';
import { ForceReleaseDialog, releasedNotice } from './force-release-dialog';
import { HealthBadge } from './health-badge';
import { LockTable } from './lock-table';
import { chip, countByHealth, filterLocks, sortLocks } from './locks-filter';
import { ListingNotes, LiveIndicator } from './listing-notes';
import { useFilterText, useLocksData } from './use-locks-data';
import { useUrlState } from './use-url-state';
import { useReturnFocus } from './use-return-focus';
import { useLocalNow, useServerNow } from './use-server-now';

interface Props {
  sources: SourceOption[];
  /** The source shown: a configured id or "all". */
  source: string;
  canRelease: boolean;
  /** A `source` (or `prefix`) in the address that is not configured: said above the list, which shows `source`. */
  unknownSource?: string;
}

export function LocksView({ sources, source, canRelease, unknownSource }: Props) {
  const router = useRouter();
  const url = useUrlState();
  const { live, query } = useLocksData(source);
  const serverNow = useServerNow(query.data?.serverTime, query.dataUpdatedAt);
  const localNow = useLocalNow(query.dataUpdatedAt);
  const [text, setText] = useFilterText(url);
  const health = url.health;
  const sort = url.sort;
  const [releasing, setReleasing] = useState<LockInfo | null>(null);
  const [bulk, setBulk] = useState<LockInfo[] | null>(null);
  const focus = useReturnFocus();
  const noticeRef = useRef<HTMLDivElement>(null);
  const current = sources.find((s) => s.id === source);
  const where = current ? current.id : 'all sources';
  const multiBucket = new Set(sources.map((s) => s.bucket)).size > 1;
  const [notice, setNotice] = useState<string | null>(null);

  // One judgement of health per second for the badges, the counts, the filter and the sort (see liveHealth)
  const all = useMemo(() => withLiveHealth(query.data?.locks ?? [], serverNow), [query.data, serverNow]);
  const counts = useMemo(() => countByHealth(all), [all]);
  const pendingCount = useMemo(() => all.filter((l) => l.pending).length, [all]);
  const shown = useMemo(() => sortLocks(filterLocks(all, health, text), sort), [all, health, text, sort]);
  const releasableShown = useMemo(() => shown.filter((l) => l.releasable), [shown]);

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <label className="text-sm">
          Source
          <select
            value={source}
            onChange={(e) => router.push(`/locks?source=${encodeURIComponent(e.target.value)}`)}
            className="ml-2 max-w-[16rem] rounded-md border border-zinc-300 bg-transparent px-2 py-1 font-mono dark:border-zinc-600"
          >
            {sources.length > 1 && <option value={ALL_SOURCES}>All sources</option>}
            {sources.map((s) => (
              <option key={s.id} value={s.id}>
                {multiBucket ? s.id : s.prefix || s.id}
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
            className="ml-2 w-56 max-w-full rounded-md border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-600"
          />
        </label>
        {canRelease && (
          <button
            type="button"
            disabled={releasableShown.length === 0}
            onClick={() => {
              focus.remember();
              setNotice(null);
              setBulk(releasableShown);
            }}
            className="rounded-md px-3 py-1 text-sm font-medium text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-50 dark:text-red-300 dark:ring-red-700 dark:hover:bg-red-950"
            data-testid="bulk-release"
          >
            Release shown ({Math.min(releasableShown.length, BULK_LIMIT)})…
          </button>
        )}
        <LiveIndicator
          state={live}
          ago={query.dataUpdatedAt ? Math.max(0, Math.round((localNow - query.dataUpdatedAt) / 1000)) : null}
          fetching={query.isFetching}
        />
      </div>

      <div role="group" aria-label="Filter by health" className="flex flex-wrap gap-2">
        <button
          type="button"
          aria-pressed={health === null}
          onClick={() => url.update({ health: null })}
          className={chip(health === null)}
        >
          All <span className="tabular">{all.length}</span>
        </button>
        {HEALTHS.map((h) => (
          <button
            key={h}
            type="button"
            aria-pressed={health === h}
            onClick={() => url.update({ health: health === h ? null : h })}
            className={chip(health === h)}
            data-testid={`count-${h}`}
          >
            <HealthBadge health={h} /> <span className="tabular">{counts[h]}</span>
          </button>
        ))}
      </div>

      {unknownSource !== undefined && (
        <div
          role="alert"
          className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          {JSON.stringify(unknownSource)} is not a configured source; showing {where}. Configured:{' '}
          {sources.map((s) => s.id).join(', ')}.
        </div>
      )}
      {query.isError && (
        <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-200">
          Could not refresh the lock list: {query.error.message}
          {query.data ? ' Showing the last data received.' : ''} Retrying every few seconds.
        </div>
      )}
      {notice && <SuccessNotice ref={noticeRef}>{notice}</SuccessNotice>}
      <ListingNotes
        where={where}
        shown={all.length}
        pending={pendingCount}
        skipped={query.data?.skipped ?? 0}
        more={query.data?.partial ? 'loading' : Boolean(query.data?.nextPageToken)}
      />
      {query.data?.partial && all.length === 0 ? null : query.data && all.length === 0 ? (
        <div className="rounded-lg border border-dashed border-zinc-300 p-10 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          <p className="font-medium">No locks in {where} right now.</p>
          <p>
            Locks appear here while a program, pipeline or <code>lockboard run</code> holds them.
          </p>
        </div>
      ) : shown.length === 0 && query.data ? (
        <p className="p-6 text-center text-sm text-zinc-500">No lock matches this filter.</p>
      ) : (
        <LockTable
          locks={shown}
          withSource={source === ALL_SOURCES && sources.length > 1}
          serverNow={serverNow}
          sort={sort}
          onSort={(key) => url.update({ sort: key, dir: sort.key === key && sort.dir === 'asc' ? 'desc' : 'asc' })}
          canRelease={canRelease}
          onRelease={(lock) => {
            focus.remember();
            setNotice(null);
            setReleasing(lock);
          }}
        />
      )}

      {bulk && (
        <BulkReleaseDialog
          locks={bulk}
          onClose={(summary) => {
            if (summary) setNotice(summary);
            setBulk(null);
            focus.restore(summary ? () => noticeRef.current : undefined);
          }}
        />
      )}
      {releasing && (
        <ForceReleaseDialog
          lock={releasing}
          serverNow={serverNow}
          onClose={(released) => {
            if (released) setNotice(releasedNotice(releasing, released));
            setReleasing(null);
            focus.restore(released ? () => noticeRef.current : undefined);
          }}
        />
      )}
    </section>
  );
}
