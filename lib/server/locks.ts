// Console-side lock queries shared by the locks route, the metrics route and server prefetching.
import 'server-only';
import { getLock, serverTimeOf, type LockHealth, type LockInfo } from '@/lib/lock';
import { ApiError, allowedPrefixes } from './http';
import { env } from './env';
import { cachedListLocks } from './list-cache';
import { storage } from './storage';

export const MAX_LOCKS_PER_RESPONSE = 10_000;

export interface LocksResponse {
  serverTime: string;
  prefix: string;
  locks: LockInfo[];
  /** Objects under the prefix that are not locks (data or unrecognised): never listed, never releasable. */
  skipped: number;
  nextPageToken?: string;
}

export function resolvePrefix(prefix: string | undefined): string {
  const prefixes = env().LOCKBOARD_PREFIXES;
  if (prefixes.length === 0) throw new ApiError('bad_request', 'No prefixes are configured: set LOCKBOARD_PREFIXES.');
  const chosen = prefix ?? prefixes[0]!;
  if (!prefixes.includes(chosen)) {
    throw new ApiError(
      'bad_request',
      `Prefix ${JSON.stringify(chosen)} is not configured; allowed: ${allowedPrefixes()}.`,
    );
  }
  return chosen;
}

/** Follows listing pages (1 000 locks each, each shared through the list cache) up to 10 000 locks. */
export async function listForConsole(
  prefix: string,
  filters: { pageToken?: string; health?: LockHealth; q?: string } = {},
): Promise<LocksResponse> {
  const locks: LockInfo[] = [];
  let skipped = 0;
  let pageToken = filters.pageToken;
  let serverTime = '';
  do {
    const page = await cachedListLocks(prefix, pageToken);
    locks.push(...page.locks);
    skipped += page.skipped.length;
    serverTime = page.serverTime;
    pageToken = page.nextPageToken;
  } while (pageToken && locks.length < MAX_LOCKS_PER_RESPONSE);
  const q = filters.q?.trim().toLowerCase();
  const shown = locks.filter(
    (l) =>
      (!filters.health || l.health === filters.health) &&
      (!q || [l.name, l.identity, l.purpose, l.host].some((v) => v?.toLowerCase().includes(q))),
  );
  return { serverTime, prefix, locks: shown, skipped, ...(pageToken ? { nextPageToken: pageToken } : {}) };
}

/** One lock with the server time it was judged at, for countdowns; null when free. */
export async function getForConsole(name: string): Promise<(LockInfo & { serverTime: string }) | null> {
  const bucket = env().LOCKBOARD_BUCKET;
  const lock = await getLock({ storage: storage(), bucket, name, longHeldMs: env().LOCKBOARD_LONG_HELD });
  return lock && { ...lock, serverTime: serverTimeOf(storage(), bucket) };
}
