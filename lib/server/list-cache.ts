// Concurrent requests for the same prefix page share one in-flight GCS listing and a short cache, so many open
// browsers cost one listing per interval, not one each.
import 'server-only';
import { listLocks, type LockList } from '@/lib/lock';
import { env } from './env';
import { countGcs, observeList } from './metrics';
import { storage } from './storage';

const TTL_MS = 1_000;
const entries = new Map<string, { at: number; value: Promise<LockList> }>();

export function cachedListLocks(bucket: string, prefix: string, pageToken?: string): Promise<LockList> {
  const key = `${bucket}\u0000${prefix}\u0000${pageToken ?? ''}`;
  const now = performance.now();
  const hit = entries.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.value;
  const started = performance.now();
  countGcs('objects.list');
  const value = listLocks({
    storage: storage(),
    bucket,
    prefix,
    pageToken,
    longHeldMs: env().LOCKBOARD_LONG_HELD,
  }).finally(() => observeList((performance.now() - started) / 1000));
  value.catch(() => entries.delete(key));
  if (entries.size > 1_000) entries.clear();
  entries.set(key, { at: now, value });
  return value;
}

/** After a mutation, the next read must not serve the pre-mutation listing. */
export function invalidateListings(): void {
  entries.clear();
}
