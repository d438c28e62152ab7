// Console-side lock queries shared by the locks route, the metrics route and server prefetching.
import 'server-only';
import { getLock, serverTimeOf, type LockHealth, type LockInfo } from '@/lib/lock';
import { gcsView } from '@/lib/lock/store';
import { env } from './env';
import { ApiError } from './http';
import { cachedListLocks } from './list-cache';
import { cachedStoreList, storeFor } from './stores';
import { isAuditObject, type Source } from './sources';
import { storage } from './storage';

export const MAX_LOCKS_PER_RESPONSE = 10_000;

export interface LocksResponse {
  serverTime: string;
  /** The source listed (`gs://bucket/prefix`) or "all". */
  source: string;
  /** Bucket and prefix of a single-source listing. */
  bucket?: string;
  prefix?: string;
  locks: LockInfo[];
  /** Objects under the source(s) that are not locks (data, unrecognised, audit events): never listed or releasable. */
  skipped: number;
  nextPageToken?: string;
}

/**
 * Follows listing pages (1 000 objects each, each shared through the list cache) up to 10 000 locks in all, one
 * source after another. A page token continues a single-source listing only.
 */
export async function listForConsole(
  selection: { id: string; sources: Source[] },
  filters: { pageToken?: string; health?: LockHealth; q?: string } = {},
): Promise<LocksResponse> {
  if (filters.pageToken && selection.sources.length !== 1) {
    throw new ApiError('bad_request', 'pageToken continues the listing of one source; choose a source, not "all".');
  }
  const locks: LockInfo[] = [];
  let skipped = 0;
  let serverTime = '';
  let pageToken = filters.pageToken;
  const seen = new Set<string>(); // nested sources (gs://b/ and gs://b/ci/) list some objects twice
  for (const source of selection.sources) {
    if (source.store !== 'gcs') {
      const list = await cachedStoreList(source);
      for (const lock of list.locks) {
        const key = `${source.bucketId}/${lock.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        locks.push(
          source.readOnly
            ? {
                ...lock,
                bucket: source.bucketId,
                releasable: false,
                releaseNote: 'Read-only source: its endpoint lacks conditional deletes, so Lockboard never clears it.',
              }
            : { ...lock, bucket: source.bucketId },
        );
      }
      skipped += list.skipped;
      serverTime = list.serverTime > serverTime ? list.serverTime : serverTime;
      continue;
    }
    do {
      const page = await cachedListLocks(source.bucket, source.prefix, pageToken);
      for (const lock of page.locks) {
        const key = `${source.bucket}/${lock.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (isAuditObject(lock.name)) skipped++;
        else locks.push(gcsView(lock, source.id));
      }
      skipped += page.skipped.length;
      serverTime = page.serverTime > serverTime ? page.serverTime : serverTime;
      pageToken = page.nextPageToken;
    } while (pageToken && locks.length < MAX_LOCKS_PER_RESPONSE);
    if (locks.length >= MAX_LOCKS_PER_RESPONSE) break;
  }
  const q = filters.q?.trim().toLowerCase();
  const shown = locks.filter(
    (l) =>
      (!filters.health || l.health === filters.health) &&
      (!q || [l.name, l.identity, l.purpose, l.host].some((v) => v?.toLowerCase().includes(q))),
  );
  const single = selection.sources.length === 1 ? selection.sources[0]! : undefined;
  return {
    serverTime,
    source: selection.id,
    ...(single ? { bucket: single.bucketId, prefix: single.prefix } : {}),
    locks: shown,
    skipped,
    ...(pageToken ? { nextPageToken: pageToken } : {}),
  };
}

/** One lock with the server time it was judged at, for countdowns; null when free. */
export async function getForConsole(source: Source, name: string): Promise<(LockInfo & { serverTime: string }) | null> {
  if (source.store !== 'gcs') {
    const store = await storeFor(source);
    const view = await store.inspect(name);
    return view && { ...view, bucket: source.bucketId, serverTime: new Date(store.now()).toISOString() };
  }
  const lock = await getLock({
    storage: storage(),
    bucket: source.bucket,
    name,
    longHeldMs: env().LOCKBOARD_LONG_HELD,
  });
  return lock && { ...gcsView(lock, source.id), serverTime: serverTimeOf(storage(), source.bucket) };
}
