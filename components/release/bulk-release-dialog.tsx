'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { apiFetch, refreshAfterRelease } from '@/lib/console/queries';
import { namesMissing, preselected } from '@/lib/console/release-care';
import { BulkResults, type BatchResult } from './bulk-release-results';
import { BulkPreview } from './bulk-release-preview';
import { Button } from '../ui/button';
import { ModalForm, ReasonField } from '../ui/modal-form';
import { seenLockBody } from '@/lib/console/release-body';

/** The batch route's limit (lib/server/release.ts MAX_BATCH). */
export const BULK_LIMIT = 100;

/**
 * Preview → typed count + one reason → per-lock results. The preview is a snapshot: each lock is released only at
 * the version listed here, so a lock that changed since is never deleted.
 */
export function BulkReleaseDialog({
  locks,
  onClose,
}: {
  locks: LockInfo[];
  onClose: (summary: string | null) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const queryClient = useQueryClient();
  const [snapshot] = useState(() => locks.slice(0, BULK_LIMIT));
  // Only what a single release would clear without asking the name: never a live holder or an ended session
  const [selected, setSelected] = useState(() => preselected(snapshot, key));
  const [typedNames, setTypedNames] = useState<Record<string, string>>({});
  const [reason, setReason] = useState('');
  const [typed, setTyped] = useState('');
  const chosen = snapshot.filter((l) => selected.has(key(l)));
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
  const missing = namesMissing(chosen, typedNames, key);
  const canSubmit =
    chosen.length > 0 && reason.trim() !== '' && typed.trim() === String(chosen.length) && missing.length === 0;
  const resultsHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  useEffect(() => {
    if (results) resultsHeading.current?.focus();
  }, [results]);

  const summary = results
    ? `Bulk release: ${results.released} released, ${results.refused} not released (each is in the audit trail).`
    : null;

  return (
    <ModalForm
      dialogRef={dialog}
      labelledBy="bulk-title"
      width="w-[min(56rem,95vw)]"
      onClose={() => onClose(summary)}
      onSubmit={() => {
        if (canSubmit && !batch.isPending && !results) batch.mutate();
      }}
    >
      <h2 id="bulk-title" className="text-lg font-semibold">
        Force-release {chosen.length} lock{chosen.length === 1 ? '' : 's'}
      </h2>
      {locks.length > BULK_LIMIT && (
        <p className="text-sm text-amber-800 dark:text-amber-200">
          Only the first {BULK_LIMIT} of the {locks.length} locks shown can be released at once.
        </p>
      )}
      {results ? (
        <BulkResults results={results} headingRef={resultsHeading} />
      ) : (
        <>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Each lock is released only at the version below; one that changed hands or was refreshed since is kept.
            Locks whose holder may be alive, or whose release ends more than the lock, are not ticked: tick one and type
            its name to include it, as a single release asks.
          </p>
          <BulkPreview
            locks={snapshot}
            selected={selected}
            typed={typedNames}
            lockKey={key}
            onSelect={(k, on) =>
              setSelected((s) => {
                const next = new Set(s);
                if (on) next.add(k);
                else next.delete(k);
                return next;
              })
            }
            onType={(k, value) => setTypedNames((t) => ({ ...t, [k]: value }))}
          />
          <ReasonField
            label="Reason (recorded in the audit trail for each lock)"
            value={reason}
            onChange={setReason}
            placeholder="e.g. CI runners of pool B died"
          />
          <label className="block text-sm">
            Type the number of locks to release ({chosen.length}) to confirm
            <input
              value={typed}
              inputMode="numeric"
              onChange={(e) => setTyped(e.target.value)}
              className="mt-1 w-32 rounded-md border border-zinc-300 bg-transparent p-2 font-mono dark:border-zinc-600"
              aria-label="Type the number of locks to confirm"
            />
          </label>
          {missing.length > 0 && (
            <p className="text-sm text-amber-800 dark:text-amber-200" data-testid="bulk-names-missing">
              Type the name of {missing.length === 1 ? missing[0]!.name : `each of the ${missing.length} locks marked`}{' '}
              to include {missing.length === 1 ? 'it' : 'them'}.
            </p>
          )}
        </>
      )}
      {batch.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {batch.error.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button onClick={() => dialog.current?.close()}>{results ? 'Close' : 'Cancel'}</Button>
        {!results && (
          <Button type="submit" variant="danger" disabled={!canSubmit || batch.isPending}>
            {batch.isPending ? 'Releasing…' : `Force-release ${chosen.length}`}
          </Button>
        )}
      </div>
    </ModalForm>
  );
}

function key(l: LockInfo): string {
  return `${l.bucket}/${l.name}`;
}
