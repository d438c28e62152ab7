'use client';

// "Release all gone": every lock of the list's selection judged gone, window by window from the server (the browser
// holds one window at a time), each released at the version listed with `ifGone`, so the server judges its holder
// again at release time and skips (and says why) a lock no longer gone. Progress after each batch; Stop ends after
// the batch under way.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { apiFetch, locksParams, refreshAfterRelease, type LocksData, type LocksQuery } from '@/lib/console/queries';
import { seenLockBody } from '@/lib/console/release-body';
import type { BatchResult } from './bulk-release-results';
import { BULK_LIMIT } from './use-bulk-release';

/** Locks per release request: small enough for the progress to move every few seconds. */
const BATCH = 25;
/** Skipped locks listed by name in the summary (every one is counted). */
export const SKIPPED_SHOWN = 200;

/** Why a listed row is not sent (a window's rows carry no release note: the lock's page has the whole of it). */
const NOT_RELEASABLE =
  "Not releasable by you: outside your release grants, in a read-only source, or refused by its store's own rule (its page says which). Not sent.";

interface GoneSkip {
  name: string;
  bucket?: string;
  why: string;
}

export interface GoneProgress {
  released: number;
  skipped: number;
  /** The first SKIPPED_SHOWN skipped locks, with why. */
  skips: GoneSkip[];
  /** Stopped by the operator before the end. */
  stopped: boolean;
}

const empty = (): GoneProgress => ({ released: 0, skipped: 0, skips: [], stopped: false });

/** The query of "Release all gone": the list's filters, judged gone, in a stable order for the cursor. */
export function goneQuery(query: LocksQuery): LocksQuery {
  return { ...query, verdict: 'gone', sort: 'name', order: 'asc', limit: BULK_LIMIT };
}

export function useReleaseGone(o: { source: string; query: LocksQuery; first: LocksData }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [progress, setProgress] = useState<GoneProgress>(empty);
  const stop = useRef(false);
  const [stopping, setStopping] = useState(false);
  const tally = useRef<GoneProgress>(empty());

  const skip = (l: { name: string; bucket?: string }, why: string) => {
    const t = tally.current;
    t.skipped++;
    if (t.skips.length < SKIPPED_SHOWN) t.skips.push({ name: l.name, bucket: l.bucket, why });
  };

  /** One window: its locks not releasable by this caller skipped, the rest released in batches. */
  const releaseWindow = async (locks: LockInfo[]) => {
    for (const l of locks) if (!l.releasable) skip(l, l.releaseNote || NOT_RELEASABLE);
    const releasable = locks.filter((l) => l.releasable);
    for (let i = 0; i < releasable.length && !stop.current; i += BATCH) {
      const batch = releasable.slice(i, i + BATCH);
      const r = await apiFetch<{ released: number; results: BatchResult[] }>('/api/locks/release-batch', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reason, locks: batch.map((l) => ({ ...seenLockBody(l), ifGone: true })) }),
      });
      tally.current.released += r.released;
      for (const res of r.results) if (res.outcome !== 'released') skip(res, res.message);
      setProgress({ ...tally.current, skips: [...tally.current.skips] });
    }
  };

  const run = useMutation({
    mutationFn: async () => {
      let page = o.first;
      for (;;) {
        await releaseWindow(page.locks);
        if (stop.current || !page.nextCursor) break;
        const next = locksParams(o.source, { ...goneQuery(o.query), cursor: page.nextCursor });
        page = await apiFetch<LocksData>(`/api/locks?${next}`);
      }
      tally.current.stopped = stop.current;
      setProgress({ ...tally.current, skips: [...tally.current.skips] });
      return tally.current;
    },
    onSettled: () => refreshAfterRelease(queryClient),
  });

  return {
    reason,
    setReason,
    progress,
    run,
    done: run.isSuccess || run.isError,
    canSubmit: reason.trim() !== '' && o.first.matched > 0 && run.isIdle,
    submit: () => {
      if (reason.trim() !== '' && run.isIdle) run.mutate();
    },
    stopping,
    stop: () => {
      stop.current = true;
      setStopping(true);
    },
  };
}

/** What the page says once the run ended (null before). */
export function goneSummary(p: GoneProgress, finished: boolean): string | null {
  if (!finished) return null;
  return `Release all gone: released ${p.released}, skipped ${p.skipped}${p.stopped ? ' (stopped before the end)' : ''}.`;
}
