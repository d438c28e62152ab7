// The watcher's reads of a store (lib/server/live/watcher.ts): a listing pass walked page by page into the source's index,
// the names a change feed reported, read one by one, and bodies read after a metadata-first listing. Each returns the
// rows that changed.
import 'server-only';
import { mapLimit } from '@/lib/lock/support/map-limit';
import { sleep } from '@/lib/lock/holding/backoff';
import { BURST_EVIDENCE_MS, canEstimate, isListedLock, type LockView } from '@/lib/lock/store';
import { storeUnavailable } from '@/lib/lock/store-errors';
import type { LockIndex, RowChange } from '../../lock/query/lock-index';
import type { ListingStatus } from '../listing-status';
import { countFeedLag } from '../metrics/metrics';
import { cachedPage, storeFor } from '../stores';
import type { Source } from '../sources';

/** The store's own words for a failed pass (never empty: a client may throw an error without a message). */
function failureWords(err: unknown): string {
  const e = err as Error;
  return storeUnavailable(err) || e?.message || e?.name || 'the store did not answer';
}

/** One listing pass: every page into the index as it comes; a failure keeps the last good rows and names the problem. */
export async function listPass(
  source: Source,
  index: LockIndex,
  status: ListingStatus,
  o: { publish: (changes: RowChange[]) => void; progress: () => void },
): Promise<void> {
  const store = await storeFor(source).catch(() => undefined);
  status.begin(store && canEstimate(store) ? await store.estimateTotal().catch(() => undefined) : undefined);
  index.beginPass();
  o.progress();
  let token: string | undefined;
  try {
    do {
      const page = await cachedPage(source, token, { progressive: true, fresh: true });
      const now = Date.parse(page.serverTime) || Date.now();
      const out: RowChange[] = [];
      for (const lock of page.locks) {
        const c = index.upsert(lock, now);
        if (c) out.push(c);
      }
      status.page(page.locks.length + page.skipped, page.skipped, page.serverTime, page.skippedWhy);
      token = page.nextPageToken;
      o.publish(out);
      o.progress();
    } while (token);
    o.publish(index.endPass());
    status.finish();
  } catch (err) {
    status.fail(failureWords(err));
  }
}

/** The names a feed reported, eight at a time: each read again, set or removed in the index. */
export async function readNames(
  source: Source,
  index: LockIndex,
  status: ListingStatus,
  batch: [name: string, sentAt: number][],
): Promise<RowChange[]> {
  const store = await storeFor(source).catch(() => undefined);
  if (!store) return [];
  const read = await mapLimit(batch, 8, async ([name, sentAt]) => {
    // holder evidence a moment old will do in a burst; unreadable now: the reconcile will see it
    const view = await store.inspect(name, { maxEvidenceAgeMs: BURST_EVIDENCE_MS }).catch(() => undefined);
    countFeedLag(source, (Date.now() - sentAt) / 1000);
    return { name, view };
  });
  const now = store.now();
  const out: RowChange[] = [];
  for (const { name, view } of read) {
    if (view === undefined) continue;
    const c = view && isListedLock(view) ? index.upsert(view, now) : index.remove(name);
    if (c) out.push(c);
  }
  status.serverTime = new Date(now).toISOString();
  status.readAt = Date.now();
  return out;
}

/** Bodies read after a metadata-first listing: pending rows filled in, or removed when they were no lock. */
export function applyBodies(index: LockIndex, views: LockView[], dropped: string[], now: number): RowChange[] {
  const out: RowChange[] = [];
  for (const v of views) {
    const c = index.upsert(v, now);
    if (c) out.push(c);
  }
  for (const name of dropped) {
    const c = index.remove(name);
    if (c) out.push(c);
  }
  return out;
}

/** Checks `done` every 20 ms until it holds or `until` (ms since the epoch) passes. */
export async function pollUntil(done: () => boolean, until: number): Promise<void> {
  while (!done() && Date.now() < until) await sleep(20);
}
