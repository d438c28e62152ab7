'use client';
// What the locks page says above the list: a source in the address that is not configured, a failed refresh or
// release, the last release's confirmation, the listing's notes, how many locks a filter matched, and changes beyond
// the rows shown.
import { formatCount as n } from '@/lib/text/format';
import type { Ref } from 'react';
import type { LocksData, SourceOption } from '@/lib/console/queries';
import { SuccessNotice } from '../ui/notice';
import { Alert, ListingNotes } from './listing-notes';

export function LocksNotices(p: {
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
  const { data } = p;
  return (
    <>
      {p.unknownSource !== undefined && (
        <Alert tone="amber">
          {JSON.stringify(p.unknownSource)} is not a configured source; showing {p.where}. Configured:{' '}
          {p.sources.map((s) => s.id).join(', ')}.
        </Alert>
      )}
      {p.refreshError && (
        <Alert>
          Could not refresh the lock list: {p.refreshError.message}
          {data ? ' Showing the last data received.' : ''} Retrying every few seconds.
        </Alert>
      )}
      {p.releaseError && <Alert>{p.releaseError}</Alert>}
      {p.notice && <SuccessNotice ref={p.noticeRef}>{p.notice}</SuccessNotice>}
      <ListingNotes where={p.where} sources={data?.sources ?? []} pending={p.pending} skipped={data?.skipped ?? 0} />
      {p.filtered && data && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="matched-count">
          {n(data.matched)} of {n(data.total)} locks match{data.complete ? '' : ' so far'}.
        </p>
      )}
      <OutsideChanges outside={data?.outside} onReload={p.onReload} />
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
