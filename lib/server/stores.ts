// The console's stores: one LockStore per configured source, opened through the registry (each store's SDK loaded
// only when a source of it is configured), and one list cache for every store: concurrent requests for the same
// page share one in-flight listing and a one-second cache, so many open browsers cost one listing per interval.
import 'server-only';
import { processWide } from './process/process-wide';
import { setAuditKey } from '@/lib/lock/audit/trust';
import { openSource, type OpenOptions } from '@/lib/lock/stores';
import type { ListOptions, LockStore, StorePage } from '@/lib/lock/store';
import { env } from './env';
import { countList, observeList } from './metrics/metrics';
import type { Source } from './sources';

const TTL_MS = 1_000;
const MAX_PAGES = 1_000;
const stores = processWide('stores', () => new Map<string, Promise<LockStore>>());
const pages = processWide('listCache', () => new Map<string, { at: number; value: Promise<StorePage> }>());

export function storeFor(source: Source): Promise<LockStore> {
  let store = stores.get(source.id);
  if (!store) {
    store = openSource(source, consoleOpenOptions());
    store.catch(() => stores.delete(source.id)); // unreachable now: try again on the next request
    stores.set(source.id, store);
  }
  return store;
}

/** How the console opens a source's store (here, and for a hold: lib/server/hold.ts). */
export function consoleOpenOptions(): OpenOptions {
  const { LOCKBOARD_AUDIT_PREFIX: auditPrefix, LOCKBOARD_LONG_HELD: longHeldMs, LOCKBOARD_AUDIT_KEY } = env();
  setAuditKey(LOCKBOARD_AUDIT_KEY);
  return { env: process.env, auditPrefix, longHeldMs, role: 'console' };
}

type Read = Parameters<NonNullable<ListOptions['later']>>[0];
const readers = processWide('laterReads', () => new Map<string, Set<(read: Read) => void>>());

/** Bodies read after a metadata-first listing of `source` (for the watcher, which pushes them to the streams). */
export function onLaterReads(source: Source, fn: (read: Read) => void): () => void {
  let set = readers.get(source.id);
  if (!set) readers.set(source.id, (set = new Set()));
  set.add(fn);
  return () => set.delete(fn);
}

/**
 * One page of a source's listing, shared by every request in the same second. `progressive` (the page's first screen,
 * the live watcher): metadata first, what still needs its body listed as pending and read in the background (the
 * next listing has it from the cache; watchers get it as it arrives), so a cold prefix never waits for every body.
 * Without it (the JSON API, metrics) every lock is complete.
 */
export function cachedPage(
  source: Source,
  pageToken?: string,
  o: { progressive?: boolean; pageSize?: number; fresh?: boolean } = {},
): Promise<StorePage> {
  const key = `${source.id}\u0000${pageToken ?? ''}\u0000${o.progressive ? 'p' : ''}\u0000${o.pageSize ?? ''}`;
  const now = performance.now();
  const hit = pages.get(key);
  if (hit && now - hit.at < TTL_MS && !o.fresh) return hit.value;
  const value = storeFor(source).then(async (store) => {
    const started = performance.now();
    countList(source.store, source.id);
    try {
      const later = (read: Read) => {
        for (const fn of readers.get(source.id) ?? []) fn(read);
      };
      const size = o.pageSize ? { pageSize: o.pageSize } : {};
      return await store.list(pageToken, o.progressive ? { later, ...size } : size);
    } finally {
      observeList(source.store, (performance.now() - started) / 1000);
    }
  });
  // a fresh read (the watcher's pass, which keeps what it needs in its index) is never kept: a million locks' pages
  // of whole views held here made the console's memory three times its index
  if (o.fresh) return value;
  value.catch(() => pages.delete(key));
  if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!);
  pages.set(key, { at: now, value });
  return value;
}

/** After a mutation, the next read must not serve the pre-mutation listing. */
export function invalidateListings(): void {
  pages.clear();
}
