// The registry of watchers (lib/server/live/watcher.ts): one per source per console process, and the two ways this
// replica tells them of a change, a mutation it made and a push it received.
import 'server-only';
import { processWide } from '../process/process-wide';
import { onStop } from '../process/shutdown';
import { invalidateListings } from '../stores';
import type { Source } from '../sources';
import { SourceWatcher } from './watcher';

export type { SourceChange } from './watcher';

const watchers = processWide('watchers', () => new Map<string, SourceWatcher>());

export function watcherFor(source: Source): SourceWatcher {
  let w = watchers.get(source.id);
  if (!w) watchers.set(source.id, (w = new SourceWatcher(source)));
  return w;
}

/** After a mutation on this replica: drop cached listings; the watcher of `source` reads `names` (or lists) now. */
export function changedOnThisReplica(source: Source, names?: string[]): void {
  invalidateListings();
  const w = watchers.get(source.id);
  if (names) w?.hint(names);
  else w?.nudge();
}

/**
 * A change this replica was pushed (`via`: the route, as an operator would recognise it): the watcher of `source`, if
 * any, reads those names now, and lists the source only as a check while such pushes keep coming (push-pace.ts).
 */
export function heardOf(source: Source, names: string[], sentAt: number | undefined, via: string): void {
  watchers.get(source.id)?.pushed(names, sentAt, via);
}

/** Start-up: every source's change feed opened before anyone watches (one pull subscription per replica on GCS). */
export function prepareWatchers(sources: Source[]): void {
  for (const source of sources) {
    watcherFor(source)
      .prepare()
      .catch((err: unknown) =>
        console.warn(`[lockboard] ${source.id}: no change feed yet (${(err as Error).message})`),
      );
  }
  onStop(() => void closeWatchers());
}

/** Process exit: every feed stopped (GCS: this replica's subscription deleted). */
export async function closeWatchers(): Promise<void> {
  await Promise.all([...watchers.values()].map((w) => w.close()));
}
