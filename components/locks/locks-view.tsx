'use client';

import { formatCount as n } from '@/lib/text/format';
import { useRouter } from 'next/navigation';
import { useMemo, useRef, useState } from 'react';
import { withLiveHealth } from '@/lib/console/health';
import { ALL_SOURCES, type LocksQuery, type SourceOption } from '@/lib/console/queries';
import { SuccessNotice } from '../ui/notice';
import { BULK_LIMIT, BulkReleaseDialog } from '../release/bulk-release-dialog';
import { ForceReleaseDialog, releasedNotice } from '../release/force-release-dialog';
import { LockTable } from './lock-table';
import { HealthChips } from './health-chips';
import { Alert, ListingNotes, LiveIndicator } from './listing-notes';
import { useFilterText, useLocksData } from './use-locks-data';
import { useReleaseActions } from '../release/use-release-actions';
import { useUrlState } from '../ui/use-url-state';
import { useReturnFocus } from '../ui/use-return-focus';
import { useLocalNow, useServerNow } from '../ui/use-server-now';

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
  // the server filters, sorts, counts and pages over every lock: the address is the query
  const wanted: LocksQuery = {
    ...(url.q.trim() ? { q: url.q.trim() } : {}),
    ...(url.health ? { health: url.health } : {}),
    sort: url.sort.key,
    order: url.sort.dir,
  };
  const [topRow, setTopRow] = useState(0);
  const { live, query, more, rows, reload } = useLocksData(source, wanted, topRow);
  const serverNow = useServerNow(query.data?.serverTime, query.dataUpdatedAt);
  const localNow = useLocalNow(query.dataUpdatedAt);
  const [text, setText] = useFilterText(url);
  const { health, sort } = url;
  const focus = useReturnFocus();
  const noticeRef = useRef<HTMLDivElement>(null);
  const current = sources.find((s) => s.id === source);
  const where = current ? current.id : 'all sources';
  const multiBucket = new Set(sources.map((s) => s.bucket)).size > 1;
  const [notice, setNotice] = useState<string | null>(null);
  const actions = useReleaseActions({
    source,
    query: wanted,
    onStart: () => (focus.remember(), setNotice(null)),
  });

  // one judgement of health per second for the badges: a TTL running out moves a row before the next push
  const shown = useMemo(() => withLiveHealth(rows, serverNow), [rows, serverNow]);
  const pendingCount = useMemo(() => shown.filter((l) => l.pending).length, [shown]);
  const data = query.data;
  const outside = data?.outside;
  const filtered = Boolean(wanted.q || wanted.health);

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
            disabled={matched(data) === 0 || actions.busy}
            onClick={actions.openBulk}
            className="rounded-md px-3 py-1 text-sm font-medium text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-50 dark:text-red-300 dark:ring-red-700 dark:hover:bg-red-950"
            data-testid="bulk-release"
          >
            Release shown ({Math.min(matched(data), BULK_LIMIT)})…
          </button>
        )}
        <LiveIndicator
          state={live}
          ago={query.dataUpdatedAt ? Math.max(0, Math.round((localNow - query.dataUpdatedAt) / 1000)) : null}
          fetching={query.isFetching}
        />
      </div>

      <HealthChips
        health={health}
        total={data?.total ?? 0}
        counts={data?.counts}
        onPick={(h) => url.update({ health: h })}
      />

      {unknownSource !== undefined && (
        <Alert tone="amber">
          {JSON.stringify(unknownSource)} is not a configured source; showing {where}. Configured:{' '}
          {sources.map((s) => s.id).join(', ')}.
        </Alert>
      )}
      {query.isError && (
        <Alert>
          Could not refresh the lock list: {query.error.message}
          {data ? ' Showing the last data received.' : ''} Retrying every few seconds.
        </Alert>
      )}
      {actions.error && <Alert>{actions.error}</Alert>}
      {notice && <SuccessNotice ref={noticeRef}>{notice}</SuccessNotice>}
      <ListingNotes where={where} sources={data?.sources ?? []} pending={pendingCount} skipped={data?.skipped ?? 0} />
      {filtered && data && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="matched-count">
          {n(data.matched)} of {n(data.total)} locks match{data.complete ? '' : ' so far'}.
        </p>
      )}
      {outside && outside.added + outside.changed > 0 && (
        <button
          type="button"
          onClick={reload}
          className="rounded-md bg-blue-50 px-3 py-1 text-sm text-blue-900 ring-1 ring-inset ring-blue-200 dark:bg-blue-950 dark:text-blue-100"
          data-testid="outside-changes"
        >
          +{n(outside.added)} new · {n(outside.changed)} changed beyond the rows shown: show them
        </button>
      )}
      {data && !data.complete && shown.length === 0 ? null : data && data.total === 0 ? (
        <div className="rounded-lg border border-dashed border-zinc-300 p-10 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          <p className="font-medium">No locks in {where} right now.</p>
          <p>
            Locks appear here while a program, pipeline or <code>lockboard run</code> holds them.
          </p>
        </div>
      ) : shown.length === 0 && data ? (
        <p className="p-6 text-center text-sm text-zinc-500">No lock matches this filter.</p>
      ) : (
        <LockTable
          locks={shown}
          withSource={source === ALL_SOURCES && sources.length > 1}
          serverNow={serverNow}
          sort={sort}
          onSort={(key) => url.update({ sort: key, dir: sort.key === key && sort.dir === 'asc' ? 'desc' : 'asc' })}
          canRelease={canRelease}
          onRelease={actions.openOne}
          onNearEnd={more.hasMore ? () => void more.load() : undefined}
          onTopRow={setTopRow}
          topKey={JSON.stringify(wanted)}
          footer={more.footer(shown.length, data?.matched ?? 0)}
        />
      )}

      {actions.bulk && (
        <BulkReleaseDialog
          locks={actions.bulk}
          onClose={(summary) => {
            if (summary) setNotice(summary);
            actions.closeBulk();
            focus.restore(summary ? () => noticeRef.current : undefined);
          }}
        />
      )}
      {actions.releasing && (
        <ForceReleaseDialog
          lock={actions.releasing}
          serverNow={serverNow}
          onClose={(released) => {
            if (released) setNotice(releasedNotice(actions.releasing!, released));
            actions.closeOne();
            focus.restore(released ? () => noticeRef.current : undefined);
          }}
        />
      )}
    </section>
  );
}

const matched = (data: { matched?: number } | undefined) => data?.matched ?? 0;
