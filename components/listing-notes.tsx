import type { LiveState } from './use-lock-stream';

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

/** What the listing leaves out or has not read yet: more pages, rows still being read, objects that are not locks. */
export function ListingNotes(p: {
  where: string;
  shown: number;
  pending: number;
  skipped: number;
  /** true: more than one response holds; 'loading': a first screen whose rest is on its way */
  more: boolean | 'loading';
}) {
  return (
    <>
      {p.more === 'loading' && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" role="status" data-testid="first-screen">
          {p.shown === 0
            ? `No locks among the first objects in ${p.where}; the rest is still being listed.`
            : `Showing the first ${p.shown} locks in ${p.where}; the rest is on its way.`}
        </p>
      )}
      {p.more === true && (
        <p className="text-sm text-amber-700">
          Showing the first {p.shown} locks in {p.where}; choose a narrower source to see the rest.
        </p>
      )}
      {p.pending > 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" role="status" data-testid="pending-count">
          Reading {p.pending} lock{p.pending === 1 ? '' : 's'} in {p.where}: owner and expiry fill in as they arrive.
        </p>
      )}
      {p.skipped > 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="skipped-count">
          {p.skipped} other object{p.skipped === 1 ? '' : 's'} in {p.where} skipped: data (such as Terraform state) or
          not a recognised lock. Lockboard never offers to delete them.
        </p>
      )}
    </>
  );
}
