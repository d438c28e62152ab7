// Console-side lock queries shared by the locks route, the metrics route and server prefetching: every store through
// its LockStore and the one list cache.
import 'server-only';
import type { LockHealth } from '@/lib/lock';
import { withoutSensitive, type LockView } from '@/lib/lock/store';
import { ApiError } from './http';
import { partnersOf } from './pairs';
import { cachedPage, storeFor } from './stores';
import type { Source } from './sources';

export const MAX_LOCKS_PER_RESPONSE = 10_000;
/** Locks listed per source for a page's first paint: a few screens' worth; the stream brings the rest. */
const FIRST_SCREEN = 200;
/**
 * A first screen lists on (1 000 objects a page) past data objects until it has FIRST_SCREEN locks, but no further
 * than this many objects: an S3 prefix that sorts 2 000 state files before its first lock still paints locks.
 */
const FIRST_SCREEN_SCAN = 5_000;

/** A lock as the console shows it: `bucket` names the source's container as requests name it. */
export type ConsoleLock = Omit<LockView, 'sensitive'> & { sensitive?: [string, string][] };

export interface LocksResponse {
  serverTime: string;
  /** The source listed (`gs://bucket/prefix`) or "all". */
  source: string;
  /** Bucket and prefix of a single-source listing. */
  bucket?: string;
  prefix?: string;
  locks: ConsoleLock[];
  /** Objects under the source(s) that are not locks (data, unrecognised, audit events): never listed or releasable. */
  skipped: number;
  nextPageToken?: string;
  /** A first screen: the first listing page of each source only; the rest follows. */
  partial?: boolean;
}

/** What the console shows of a lock: read-only sources marked, sensitive fields for those who may see them only. */
export function consoleView(source: Source, view: LockView, seesSensitive: boolean): ConsoleLock {
  const shown = seesSensitive ? view : withoutSensitive(view);
  return source.readOnly
    ? { ...shown, bucket: source.bucketId, releasable: false, releaseNote: `Read-only source: ${source.readOnly}` }
    : { ...shown, bucket: source.bucketId };
}

/**
 * Follows listing pages (each shared through the list cache) up to 10 000 locks in all, one source after another.
 * A page token continues a single-source listing only.
 */
export async function listForConsole(
  selection: { id: string; sources: Source[] },
  filters: {
    pageToken?: string;
    health?: LockHealth;
    q?: string;
    sensitive?: boolean;
    progressive?: boolean;
    /** The page's first paint: one listing page per source; the stream (or the next poll) brings the rest. */
    firstScreen?: boolean;
  } = {},
): Promise<LocksResponse> {
  if (filters.pageToken && selection.sources.length !== 1) {
    throw new ApiError('bad_request', 'pageToken continues the listing of one source; choose a source, not "all".');
  }
  const locks: ConsoleLock[] = [];
  let skipped = 0;
  let serverTime = '';
  let pageToken = filters.pageToken;
  const seen = new Set<string>(); // nested sources (gs://b/ and gs://b/ci/) list some objects twice
  let partial = false;
  for (const source of selection.sources) {
    let listed = 0;
    let found = 0;
    do {
      const page = await cachedPage(source, pageToken, {
        progressive: filters.progressive === true,
        ...(filters.firstScreen ? { pageSize: pageToken ? 1000 : FIRST_SCREEN } : {}),
      });
      listed += page.locks.length + page.skipped;
      found += page.locks.length;
      for (const lock of page.locks) {
        const key = `${source.bucketId}\u0000${lock.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        locks.push(consoleView(source, lock, filters.sensitive === true));
      }
      skipped += page.skipped;
      serverTime = page.serverTime > serverTime ? page.serverTime : serverTime;
      pageToken = page.nextPageToken;
      if (pageToken && filters.firstScreen && (found >= FIRST_SCREEN || listed >= FIRST_SCREEN_SCAN)) {
        partial = true;
        pageToken = undefined; // the first screen's pages continue nothing else: the rest comes in full
        break;
      }
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
    ...(partial ? { partial: true } : {}),
  };
}

/** One lock (or what is there instead) with the server time it was judged at, on that store's clock. */
export async function getForConsole(
  source: Source,
  name: string,
  seesSensitive = false,
): Promise<
  (ConsoleLock & { serverTime: string }) | { name: string; bucket: string; absent: true; serverTime: string }
> {
  const store = await storeFor(source);
  const view = await store.inspect(name);
  const serverTime = new Date(store.now()).toISOString();
  if (!view) return { name, bucket: source.bucketId, absent: true, serverTime };
  const shown = consoleView(source, view, seesSensitive);
  // the same lock kept in another store: shown beside it (and released with it)
  const partners = await partnersOf(view, source).catch(() => []);
  if (partners.length)
    shown.details = [
      ...shown.details,
      ...partners.map(({ source: s, lock }): [string, string] => [
        'Also held in',
        `${s.id} ${lock.name} (${lock.versionLabel}): released with this one, by its own condition`,
      ]),
    ];
  return { ...shown, serverTime };
}
