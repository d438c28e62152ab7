'use client';
// The bar above the lock list: the source shown, the filter box, "Release shown" and "Release all gone" for a
// releaser or operator (never a viewer), and how fresh the list is.
import { useRouter } from 'next/navigation';
import { ALL_SOURCES, type SourceOption } from '@/lib/console/queries';
import { formatCount } from '@/lib/text/format';
import { TONE_CLASSES } from '@/lib/console/release-tone';
import { BULK_LIMIT } from '../release/use-bulk-release';
import { LiveIndicator } from './listing-notes';
import { HoldsFilter } from './hold-filter';
import type { LiveState } from './lock-stream-connection';

export function LocksToolbar(p: {
  sources: SourceOption[];
  source: string;
  text: string;
  onText: (text: string) => void;
  /** The locks the server matched; null when releasing is not allowed. */
  releasable: number | null;
  /** Of those, the ones the bulk release would tick (release-tone.ts readyCount); null where the counts cannot say. */
  ready: number | null;
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
      <HoldsFilter text={p.text} onText={p.onText} />
      {p.releasable !== null && (
        <ReleaseShown matched={p.releasable} ready={p.ready} busy={p.busy} onClick={p.onBulk} />
      )}
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
const QUIET = `rounded-md px-3 py-1 text-sm ${TONE_CLASSES.quiet}`;
const LOUD = `rounded-md px-3 py-1 text-sm ${TONE_CLASSES.loud}`;

/**
 * "Release shown": the locks the server matched, up to a batch, counted as what it would tick (expired ones; never a
 * healthy or live holder, listed unticked for an operator to choose by name), or uncounted where the counts cannot say.
 */
function ReleaseShown(p: { matched: number; ready: number | null; busy: boolean; onClick: () => void }) {
  const ready = p.ready === null ? null : Math.min(p.ready, BULK_LIMIT);
  const shown = formatCount(Math.min(p.matched, BULK_LIMIT));
  const ticks =
    ready === null
      ? 'the dialog ticks only the expired ones'
      : `the dialog ticks ${ready === 0 ? 'none' : `the ${formatCount(ready)} expired`}`;
  return (
    <button
      type="button"
      disabled={p.matched === 0 || p.busy}
      onClick={p.onClick}
      className={QUIET}
      title={`Review the ${shown} locks this filter matches: ${ticks}; a healthy or live holder is never ticked, and each is checked and confirmed by name first`}
      data-testid="bulk-release"
    >
      {ready === null ? 'Release shown…' : `Release shown (${formatCount(ready)} expired)…`}
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
