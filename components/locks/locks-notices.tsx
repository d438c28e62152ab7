'use client';
// What the locks page says above the list: a source in the address that is not configured, a failed refresh or
// release, the last release's confirmation, the listing's notes, how many locks a filter matched, and changes beyond
// the rows shown.
import { formatCount as n } from '@/lib/text/format';
import { plural } from '@/lib/text/plural';
import type { Ref } from 'react';
import type { LocksData, SourceOption } from '@/lib/console/queries';
import { SuccessNotice } from '../ui/notice';
import { Alert, ListingNotes } from './listing-notes';

export function LocksNotices({
  sources,
  where,
  unknownSource,
  data,
  refreshError,
  releaseError,
  notice,
  noticeRef,
  pending,
  filtered,
  onReload,
}: {
  sources: SourceOption[];
  where: string;
  unknownSource?: string;
  data: LocksData | undefined;
  refreshError: Error | null;
  releaseError: string | null;
  notice: string | null;
  noticeRef: Ref<HTMLDivElement>;
  pending: number;
  filtered: boolean;
  onReload: () => void;
}) {
  return (
    <>
      {unknownSource !== undefined && (
        <Alert tone="amber">
          {JSON.stringify(unknownSource)} is not a configured source; showing {where}. Configured:{' '}
          {sources.map((s) => s.id).join(', ')}.
        </Alert>
      )}
      {refreshError && (
        <Alert>
          Could not refresh the lock list: {refreshError.message}
          {data ? ' Showing the last data received.' : ''} Retrying every few seconds.
        </Alert>
      )}
      {releaseError && <Alert>{releaseError}</Alert>}
      {notice && <SuccessNotice ref={noticeRef}>{notice}</SuccessNotice>}
      <ListingNotes where={where} sources={data?.sources ?? []} pending={pending} skipped={data?.skipped ?? 0} />
      {filtered && data && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="matched-count">
          {n(data.matched)} of {plural('lock', data.total, { format: n })} match{data.matched === 1 ? 'es' : ''}
          {data.complete ? '' : ' so far'}.
        </p>
      )}
      <OutsideChanges outside={data?.outside} onReload={onReload} />
    </>
  );
}

/** Matching rows beyond the window shown that are new or changed: a button that loads a fresh window. */
function OutsideChanges({ outside, onReload }: { outside: LocksData['outside']; onReload: () => void }) {
  if (!(outside && outside.added + outside.changed > 0)) return null;
  return (
    <button
      type="button"
      onClick={onReload}
      className="rounded-md bg-blue-50 px-3 py-1 text-sm text-blue-900 ring-1 ring-inset ring-blue-200 dark:bg-blue-950 dark:text-blue-100"
      data-testid="outside-changes"
    >
      +{n(outside.added)} new · {n(outside.changed)} changed beyond the rows shown: show them
    </button>
  );
}
