'use client';
// The bar above the lock list: the source shown, the filter box, "Release shown" and "Release all gone" for a
// releaser or operator (never a viewer), and how fresh the list is.
import { useRouter } from 'next/navigation';
import { ALL_SOURCES, type SourceOption } from '@/lib/console/queries';
import { formatCount } from '@/lib/text/format';
import { BULK_LIMIT } from '../release/use-bulk-release';
import { LiveIndicator } from './listing-notes';
import type { LiveState } from './lock-stream-connection';

export function LocksToolbar(p: {
  sources: SourceOption[];
  source: string;
  text: string;
  onText: (text: string) => void;
  /** The locks the server matched; null when releasing is not allowed. */
  releasable: number | null;
  /** Locks judged gone over the whole selection (the server's count). */
  gone: number;
  busy: boolean;
  onBulk: () => void;
  onGone: () => void;
  live: LiveState;
  ago: number | null;
  fetching: boolean;
}) {
  return (
    <div className="flex flex-wrap items-end gap-4">
      <SourcePicker sources={p.sources} source={p.source} />
      <label className="text-sm">
        Filter
        <input
          type="search"
          value={p.text}
          onChange={(e) => p.onText(e.target.value)}
          placeholder="name, owner, purpose, host"
          className="ml-2 w-56 max-w-full rounded-md border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-600"
        />
      </label>
      {p.releasable !== null && <ReleaseShown matched={p.releasable} busy={p.busy} onClick={p.onBulk} />}
      {p.releasable !== null && <ReleaseGone gone={p.gone} busy={p.busy} onClick={p.onGone} />}
      <LiveIndicator state={p.live} ago={p.ago} fetching={p.fetching} />
    </div>
  );
}

/** The source shown: picking another opens its address. */
function SourcePicker({ sources, source }: { sources: SourceOption[]; source: string }) {
  const router = useRouter();
  const multiBucket = new Set(sources.map((s) => s.bucket)).size > 1;
  return (
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
  );
}

// A bulk release over locks that may be healthy is a secondary action, never the loudest thing on the page; only
// "Release all gone" with something gone to clear is red.
const QUIET =
  'rounded-md px-3 py-1 text-sm text-zinc-700 ring-1 ring-inset ring-zinc-300 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-50 dark:text-zinc-300 dark:ring-zinc-600 dark:hover:bg-zinc-800';
const LOUD =
  'rounded-md px-3 py-1 text-sm font-medium text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-50 dark:text-red-300 dark:ring-red-700 dark:hover:bg-red-950';

/** "Release shown": the locks the server matched, up to a batch. */
function ReleaseShown({ matched, busy, onClick }: { matched: number; busy: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      disabled={matched === 0 || busy}
      onClick={onClick}
      className={QUIET}
      title="Release the locks this filter matches, each checked and confirmed by name first"
      data-testid="bulk-release"
    >
      Release shown ({Math.min(matched, BULK_LIMIT)})…
    </button>
  );
}

/** "Release all gone": every lock of the selection judged gone, each judged again when released. */
function ReleaseGone({ gone, busy, onClick }: { gone: number; busy: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      disabled={gone === 0 || busy}
      onClick={onClick}
      className={gone > 0 ? LOUD : QUIET}
      data-testid="release-gone"
    >
      Release all gone ({formatCount(gone)})…
    </button>
  );
}
