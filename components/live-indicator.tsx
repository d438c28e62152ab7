import type { LiveState } from './use-lock-stream';

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
