// One table of what a force-release outcome means, for the console, the CLI and programs alike, and the CLI's exit
// code for each (docs/stores.md "The contract suite").
import type { StoreReleaseOutcome } from './store';

export const OUTCOME_MESSAGES: Record<StoreReleaseOutcome, string> = {
  released: 'Released.',
  changed: 'The lock changed hands since you viewed it; nothing was deleted.',
  refreshed: 'The holder refreshed since you viewed it, so it is alive; nothing was deleted.',
  gone: 'The lock was already released.',
  'not-a-lock': 'This is not a lock Lockboard recognises (data or an unknown format); nothing was deleted.',
};

export const UNCONFIRMED_MESSAGE =
  'The lock is released. The response to the delete was lost and its retry found the lock already gone, so it was removed either by this request or, at the same moment, by its holder.';

/** The outcome of a release of `where`, in one sentence naming what happened and what was left alone. */
export function describeOutcome(
  outcome: StoreReleaseOutcome,
  o: { where: string; version: string; holder?: string; detail?: string; queuedFor?: string },
): string {
  if (outcome === 'not-a-lock' && o.queuedFor)
    return `Refused: ${o.where} is a waiter queued for ${o.queuedFor}, not its holder: Lockboard never releases a waiter (removing its key can let two contenders hold the lock at once). Release the holder of ${o.queuedFor} instead. Nothing was deleted.`;
  if (o.detail && outcome === 'refreshed') return `Refused: ${o.where}: ${o.detail} Nothing was deleted.`;
  if (o.detail && outcome === 'changed')
    return `Refused: ${o.where} changed hands since you looked: ${o.detail}. Nothing was deleted.`;
  switch (outcome) {
    case 'released':
      return `Released ${o.where} (version ${o.version}).`;
    case 'changed':
      // the version given may also never have been this lock's (a typo): say only what is known
      return `Refused: ${o.where} is not at version ${o.version}: it changed hands since you looked, or that version was never its own; it is now held by ${o.holder ?? 'a holder at another version'}. Nothing was deleted.`;
    case 'refreshed':
      return `Refused: the holder of ${o.where} refreshed since you looked, so it is alive. Nothing was deleted.`;
    case 'gone':
      return `${o.where} was already gone: nothing holds it now.`;
    default:
      return `Refused: ${o.where} is not a lock Lockboard recognises, so it is never deleted. Nothing was deleted.`;
  }
}

/** The CLI's exit code for an outcome: 0 released, 11 changed or refreshed, 12 gone, 13 not a lock (or a waiter). */
export const OUTCOME_EXIT: Record<StoreReleaseOutcome, number> = {
  released: 0,
  changed: 11,
  refreshed: 11,
  gone: 12,
  'not-a-lock': 13,
};
