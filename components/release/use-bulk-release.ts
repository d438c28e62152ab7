'use client';

// The bulk release's state: the snapshot of the locks shown (capped), which are ticked, the names typed for the ones
// that ask it, one reason, the typed count, and the batch itself.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { apiFetch, refreshAfterRelease } from '@/lib/console/queries';
import { namesMissing, preselected } from '@/lib/console/release-care';
import { seenLockBody } from '@/lib/console/release-body';
import type { BatchResult } from './bulk-release-results';

/** The batch route's limit (lib/server/release.ts MAX_BATCH). */
export const BULK_LIMIT = 100;

export type BulkRelease = ReturnType<typeof useBulkRelease>;

export function useBulkRelease(locks: LockInfo[]) {
  const queryClient = useQueryClient();
  const [snapshot] = useState(() => locks.slice(0, BULK_LIMIT));
  // Only what a single release would clear without asking the name: never a live holder or an ended session
  const [selected, setSelected] = useState(() => preselected(snapshot, lockKey));
  const [typedNames, setTypedNames] = useState<Record<string, string>>({});
  const [reason, setReason] = useState('');
  const [typed, setTyped] = useState('');
  const chosen = snapshot.filter((l) => selected.has(lockKey(l)));
  const batch = useMutation({
    mutationFn: () =>
      apiFetch<{ released: number; refused: number; results: BatchResult[] }>('/api/locks/release-batch', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          reason,
          locks: chosen.map(seenLockBody),
        }),
      }),
    onSettled: () => refreshAfterRelease(queryClient),
  });
  const results = batch.data;
  const missing = namesMissing(chosen, typedNames, lockKey);
  const canSubmit =
    chosen.length > 0 && reason.trim() !== '' && typed.trim() === String(chosen.length) && missing.length === 0;
  const select = (k: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(k);
      else next.delete(k);
      return next;
    });
  const typeName = (k: string, value: string) => setTypedNames((t) => ({ ...t, [k]: value }));
  const submit = () => {
    if (canSubmit && !batch.isPending && !results) batch.mutate();
  };
  return {
    snapshot,
    selected,
    select,
    typedNames,
    typeName,
    reason,
    setReason,
    typed,
    setTyped,
    chosen,
    missing,
    batch,
    results,
    canSubmit,
    submit,
  };
}

/** A lock in the snapshot: its bucket and name. */
export function lockKey(l: LockInfo): string {
  return `${l.bucket}/${l.name}`;
}

/** What the page says once the batch ran (null before). */
export function bulkSummary(results: { released: number; refused: number } | undefined): string | null {
  return results
    ? `Bulk release: ${results.released} released, ${results.refused} not released (each is in the audit trail).`
    : null;
}
