// A source's live label as the page shows it, read from its watcher's state (what GET /api/locks and the stream's
// counts carry in `sources[].live`) without a query: a query lists a small source again, which would hide the pace.
import { liveLabel } from '@/lib/console/live-label';
import { delay } from './requests';

export async function sourceLabel(id: string): Promise<string> {
  const { sources } = await import('@/lib/server/sources');
  const { watcherFor } = await import('@/lib/server/live/watch');
  const source = sources().find((s) => s.id === id);
  if (!source) throw new Error(`no configured source ${id}`);
  return liveLabel(watcherFor(source).state(id).live!);
}

/** Resolves with the label once it matches `wanted` (checked every 250 ms), and how long that took. */
export async function labelWithin(id: string, ms: number, wanted: RegExp): Promise<{ label: string; after: number }> {
  const started = Date.now();
  let last = '';
  while (Date.now() - started < ms) {
    last = await sourceLabel(id);
    if (wanted.test(last)) return { label: last, after: Date.now() - started };
    await delay(250);
  }
  throw new Error(`the label of ${id} stayed "${last}" for ${ms} ms, never ${wanted}`);
}
