'use client';

// The locks page's releases: a row's dialog opens on the lock as the server reads it now (the row is the index's
// lean copy, without details or the holder's session), "Release shown" acts on the server's matched set, capped, and
// "Release all gone" starts from the first window of the selection's locks judged gone.
import { useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import {
  apiFetch,
  lockHref,
  locksParams,
  type LockDetailData,
  type LocksData,
  type LocksQuery,
} from '@/lib/console/queries';
import { BULK_LIMIT } from './use-bulk-release';
import { goneQuery } from './use-release-gone';

export function useReleaseActions(o: { source: string; query: LocksQuery; onStart: () => void }) {
  const [releasing, setReleasing] = useState<LockInfo | null>(null);
  const [bulk, setBulk] = useState<LockInfo[] | null>(null);
  const [gone, setGone] = useState<LocksData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const openOne = async (row: LockInfo) => {
    o.onStart();
    setError(null);
    setBusy(true);
    try {
      const full = await apiFetch<LockDetailData | { absent: true }>(`/api${lockHref(row.name, row.bucket)}`);
      if ('absent' in full) setError(`${row.name} is gone: nothing to release.`);
      else setReleasing(full);
    } catch (err) {
      setError(`Could not read ${row.name} to release it: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  /** The first BULK_LIMIT locks the server matches for the page's query, releasable ones only. */
  const openBulk = async () => {
    o.onStart();
    setError(null);
    setBusy(true);
    try {
      const page = await apiFetch<LocksData>(`/api/locks?${locksParams(o.source, { ...o.query, limit: BULK_LIMIT })}`);
      setBulk(page.locks.filter((l) => l.releasable));
    } catch (err) {
      setError(`Could not list the locks to release: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  /** The first window of the selection's locks judged gone (the dialog reads the next ones as it goes). */
  const openGone = async () => {
    o.onStart();
    setError(null);
    setBusy(true);
    try {
      setGone(await apiFetch<LocksData>(`/api/locks?${locksParams(o.source, goneQuery(o.query))}`));
    } catch (err) {
      setError(`Could not list the locks judged gone: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return {
    releasing,
    bulk,
    gone,
    error,
    busy,
    openOne: (row: LockInfo) => void openOne(row),
    openBulk: () => void openBulk(),
    openGone: () => void openGone(),
    closeGone: () => setGone(null),
    closeOne: () => setReleasing(null),
    closeBulk: () => setBulk(null),
  };
}
