'use client';

import { useMemo, useState } from 'react';
import { withLiveHealth } from '@/lib/console/health';
import { ALL_SOURCES, type SourceOption } from '@/lib/console/queries';
import { readyCount } from '@/lib/console/release-tone';
import { LockTable } from './lock-table';
import { HealthChips } from './health-chips';
import { VerdictChips } from './verdict-chips';
import { EmptyList, listShape } from './empty-list';
import { LocksNotices } from './locks-notices';
import { LocksReleaseDialogs } from './locks-release-dialogs';
import { LocksToolbar } from './locks-toolbar';
import { useFilterText, useLocksData } from './use-locks-data';
import { wantedQuery } from './wanted-query';
import { useReleaseActions } from '../release/use-release-actions';
import { useReleaseNotice } from '../release/use-release-notice';
import { useUrlState } from '../ui/use-url-state';
import { useLocalNow, useServerNow } from '../ui/use-server-now';

interface Props {
  sources: SourceOption[];
  /** The source shown: a configured id or "all". */
  source: string;
  canRelease: boolean;
  /** The caller may release any lock it sees (an operator), not only expired or gone ones (a releaser). */
  releasesAny?: boolean;
  /** A `source` (or `prefix`) in the address that is not configured: said above the list, which shows `source`. */
  unknownSource?: string;
}

export function LocksView({ sources, source, canRelease, releasesAny = false, unknownSource }: Props) {
  const url = useUrlState();
  const { health, verdict, sort } = url;
  const wanted = wantedQuery(url);
  const [topRow, setTopRow] = useState(0);
  const { live, query, more, rows, reload } = useLocksData(source, wanted, topRow);
  const data = query.data;
  const serverNow = useServerNow(data?.serverTime, query.dataUpdatedAt);
  const localNow = useLocalNow(query.dataUpdatedAt);
  const [text, setText] = useFilterText(url);
  const { notice, noticeRef, open, close } = useReleaseNotice();
  const actions = useReleaseActions({ source, query: wanted, onStart: open });
  const where = sources.find((s) => s.id === source)?.id ?? 'all sources';
  // one judgement of health per second for the badges: a TTL running out moves a row before the next push
  const shown = useMemo(() => withLiveHealth(rows, serverNow), [rows, serverNow]);
  const pendingCount = useMemo(() => shown.filter((l) => l.pending).length, [shown]);
  const shape = listShape(data, shown.length);

  return (
    <section className="space-y-4">
      <LocksToolbar
        sources={sources}
        source={source}
        text={text}
        onText={setText}
        releasable={canRelease ? (data?.matched ?? 0) : null}
        ready={readyCount(data?.counts, wanted, releasesAny)}
        gone={data?.verdicts?.gone ?? 0}
        busy={actions.busy}
        onBulk={actions.openBulk}
        onGone={actions.openGone}
        live={live}
        ago={query.dataUpdatedAt ? Math.max(0, Math.round((localNow - query.dataUpdatedAt) / 1000)) : null}
        fetching={query.isFetching}
      />
      <HealthChips
        health={health}
        total={data?.total ?? 0}
        counts={data?.counts}
        onPick={(h) => url.update({ health: h })}
      />
      <VerdictChips verdict={verdict} counts={data?.verdicts} onPick={(v) => url.update({ verdict: v })} />
      <LocksNotices
        sources={sources}
        where={where}
        unknownSource={unknownSource}
        data={data}
        refreshError={query.isError ? query.error : null}
        releaseError={actions.error}
        notice={notice}
        noticeRef={noticeRef}
        pending={pendingCount}
        filtered={Boolean(wanted.q || wanted.health || wanted.verdict)}
        onReload={reload}
      />
      {shape === 'table' ? (
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
      ) : (
        <EmptyList shape={shape} where={where} />
      )}
      <LocksReleaseDialogs
        bulk={actions.bulk}
        releasing={actions.releasing}
        gone={actions.gone && { first: actions.gone, source, query: wanted, where }}
        serverNow={serverNow}
        closeBulk={actions.closeBulk}
        closeGone={actions.closeGone}
        closeOne={actions.closeOne}
        onDone={close}
      />
    </section>
  );
}
