import { formatCount as n } from '@/lib/text/format';
import type { ReactNode } from 'react';
import type { SourceStateData } from '@/lib/console/queries';
import { liveLabel } from '@/lib/console/live-label';
import { plural } from '@/lib/text/plural';
import { SkippedNote } from './skipped-note';
import type { LiveState } from './lock-stream-connection';

// The notes around the lock list: how fresh it is, and what it leaves out.

/** How fresh the list is: pushed live, reconnecting, or polled (with the age of the last answer). */
export function LiveIndicator({ state, ago, fetching }: { state: LiveState; ago: number | null; fetching: boolean }) {
  if (state === 'live') {
    return (
      <p
        className="ml-auto flex items-center gap-1 text-xs text-zinc-600 dark:text-zinc-400"
        data-testid="updated"
        title="The server pushes every change as it happens"
      >
        <span aria-hidden className="inline-block h-2 w-2 rounded-full bg-emerald-500" />
        live
      </p>
    );
  }
  return (
    <p className="ml-auto text-xs text-zinc-500" data-testid="updated">
      {state === 'connecting' ? 'connecting… ' : ''}
      {ago !== null ? `updated ${ago} s ago` : ''}
      {fetching ? ' · refreshing' : ''}
    </p>
  );
}

const clock = (iso: string) => new Date(iso).toISOString().slice(11, 16) + ' UTC';

/**
 * What the listing covers: each source's first pass in progress ("listed 230 000 of ~1 000 000 keys"), a source
 * that does not answer (the store's words, since when, and the last good listing kept), rows still being read,
 * objects that are not locks.
 */
export function ListingNotes(p: { where: string; sources: SourceStateData[]; pending: number; skipped: number }) {
  return (
    <>
      {p.sources
        .filter((s) => s.listing && !s.complete)
        .map((s) => (
          <p
            key={`l-${s.source}`}
            className="text-sm text-zinc-600 dark:text-zinc-400"
            role="status"
            data-testid="first-screen"
          >
            Listing {s.source}: listed {n(s.listed)}
            {s.estimate ? ` of ~${n(s.estimate)}` : ''} keys, objects or rows so far; counts and filters cover what is
            listed and grow as it goes.
          </p>
        ))}
      {p.sources
        .filter((s) => s.error)
        .map((s) => (
          <p
            key={`e-${s.source}`}
            role="alert"
            className="rounded-md bg-red-50 p-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-200"
            data-testid="source-unreachable"
          >
            {s.source} is unreachable (since {clock(s.error!.at)}): {s.error!.message.replace(/\.$/, '')}.{' '}
            {s.lastGoodRead
              ? `Showing its last good listing, of ${clock(s.lastGoodRead)}; retrying.`
              : 'Nothing listed from it yet; retrying.'}{' '}
            The other sources are live.
          </p>
        ))}
      {p.sources.length > 0 && <SourceModes sources={p.sources} />}
      {p.pending > 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" role="status" data-testid="pending-count">
          Reading {plural('lock', p.pending)} in {p.where}: owner and expiry fill in as they arrive.
        </p>
      )}
      <SkippedNote where={p.where} skipped={p.skipped} sources={p.sources} />
    </>
  );
}

const modeOf = (s: SourceStateData) => (s.live ? `${s.source}: ${liveLabel(s.live)}` : s.source);

/** How each source stays fresh, folded to one line (on a phone the list comes first), opened on demand. */
function SourceModes({ sources }: { sources: SourceStateData[] }) {
  const pushed = sources.filter((s) => s.live && 'push' in s.live).length;
  const polled = sources.filter((s) => s.live && !('push' in s.live)).length;
  const parts = [pushed && `${pushed} pushed`, polled && `${polled} polled`].filter(Boolean);
  return (
    <details className="text-xs text-zinc-500">
      <summary className="cursor-pointer">
        How the {sources.length === 1 ? 'source stays' : `${sources.length} sources stay`} fresh
        {parts.length ? `: ${parts.join(', ')}` : ''}
      </summary>
      <p data-testid="source-modes">{sources.map(modeOf).join(' · ')}</p>
    </details>
  );
}

/** A problem above the list: red, or amber for a request the page answered another way. */
export function Alert({ tone = 'red', children }: { tone?: 'red' | 'amber'; children: ReactNode }) {
  const colours =
    tone === 'amber'
      ? 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200'
      : 'bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-200';
  return (
    <div role="alert" className={`rounded-md p-3 text-sm ${colours}`}>
      {children}
    </div>
  );
}
