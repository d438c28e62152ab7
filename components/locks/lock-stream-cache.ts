// What the locks stream writes into TanStack Query's cache: the window followed gets the rows (the first window, in
// the query's cache, or one loaded by scrolling); counts, listing progress and the server's time always go to the
// query's first window.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { LockInfo } from '@/lib/lock/types';
import type { LocksData } from '@/lib/console/queries';
import type { FollowedWindow } from './use-more-windows';
import { withCountsOf } from './window-counts';

export interface Change {
  bucket: string;
  serverTime: string;
  upsert: LockInfo[];
  remove: string[];
  /** A window that held every match took new rows: its rows in order (`bucket\0name`). */
  order?: string[];
}

export type StreamWriters = ReturnType<typeof streamWriters>;

/** The writes of one stream: `key` is the query's first window, `intoWindow` the window followed (if not that one). */
export function streamWriters(
  client: QueryClient,
  key: QueryKey,
  intoWindow?: FollowedWindow['write'],
  /** The query filters (q, health, verdict): a row leaving the window may only have stopped matching. */
  filtered = false,
) {
  const update = (fn: (old: LocksData) => LocksData) => client.setQueryData<LocksData>(key, (old) => old && fn(old));
  const updateRows = (fn: (old: LocksData) => LocksData) =>
    intoWindow ? intoWindow((w) => fn(w as LocksData)) : update(fn);
  return {
    snapshot: (data: LocksData) => {
      const snap = { ...data, outside: { added: 0, changed: 0 } };
      if (!intoWindow) client.setQueryData<LocksData>(key, snap);
      else {
        intoWindow(() => ({ locks: snap.locks, nextCursor: snap.nextCursor }));
        update((old) => ({ ...snap, locks: old.locks, nextCursor: old.nextCursor }));
      }
    },
    // the first window's counts move with its rows (window-counts.ts); a scrolled window's wait for the server's
    change: (change: Change) =>
      intoWindow
        ? updateRows((old) => applyChange(old, change))
        : update((old) => withCountsOf(old, applyChange(old, change), filtered)),
    counts: (c: Omit<LocksData, 'locks'>) =>
      update((old) => ({ ...old, ...c, locks: old.locks, nextCursor: old.nextCursor })),
    tick: (serverTime: string) => {
      if (serverTime) update((old) => ({ ...old, serverTime }));
    },
  };
}

/** The window with one change applied: rows of `bucket` replaced or removed by name, new ones placed by `order`. */
export function applyChange(data: LocksData, change: Change): LocksData {
  const gone = new Set(change.remove);
  const fresh = new Map(change.upsert.map((l) => [l.name, l]));
  const locks: LockInfo[] = [];
  for (const l of data.locks) {
    if (l.bucket !== change.bucket) locks.push(l);
    else if (fresh.has(l.name)) {
      locks.push(fresh.get(l.name)!);
      fresh.delete(l.name);
    } else if (!gone.has(l.name)) locks.push(l);
  }
  if (change.order && fresh.size) {
    locks.push(...fresh.values());
    const at = new Map(change.order.map((k, i) => [k, i]));
    const pos = (l: LockInfo) => at.get(`${l.bucket}\u0000${l.name}`) ?? Number.MAX_SAFE_INTEGER;
    locks.sort((a, b) => pos(a) - pos(b));
  }
  return { ...data, serverTime: change.serverTime, locks };
}
