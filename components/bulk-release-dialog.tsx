'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { versionText } from '@/lib/format';
import { apiFetch } from '@/lib/queries';
import { BulkResults, type BatchResult } from './bulk-release-results';
import { HealthBadge } from './health-badge';
import { Button } from './ui/button';
import { ModalForm, ReasonField } from './ui/modal-form';
import { seenLockBody } from '@/lib/release-body';

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
  const [selected, setSelected] = useState(() => new Set(snapshot.map(key)));
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
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['locks'] }),
  });
  const results = batch.data;
  const canSubmit = chosen.length > 0 && reason.trim() !== '' && typed.trim() === String(chosen.length);
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
            Untick any you do not want to release.
          </p>
          <div className="max-h-[40vh] overflow-auto rounded-md ring-1 ring-zinc-200 dark:ring-zinc-700">
            <table className="w-full text-left text-sm" data-testid="bulk-preview">
              <thead className="sticky top-0 bg-zinc-50 text-xs uppercase text-zinc-500 dark:bg-zinc-800">
                <tr>
                  <th className="p-2">
                    <span className="sr-only">Release</span>
                  </th>
                  <th className="p-2">Lock</th>
                  <th className="p-2">Holder</th>
                  <th className="p-2">Health</th>
                  <th className="p-2">Generation</th>
                </tr>
              </thead>
              <tbody>
                {snapshot.map((l) => (
                  <tr key={key(l)} className="border-t border-zinc-100 dark:border-zinc-800">
                    <td className="p-2">
                      <input
                        type="checkbox"
                        checked={selected.has(key(l))}
                        aria-label={`Release ${l.name}`}
                        onChange={(e) =>
                          setSelected((s) => {
                            const next = new Set(s);
                            if (e.target.checked) next.add(key(l));
                            else next.delete(key(l));
                            return next;
                          })
                        }
                      />
                    </td>
                    <td className="max-w-[16rem] truncate p-2 font-mono">{l.name}</td>
                    <td className="max-w-[12rem] truncate p-2">{l.identity ?? 'unknown'}</td>
                    <td className="p-2">
                      <HealthBadge health={l.health} />
                    </td>
                    <td className="p-2 font-mono text-xs">{versionText(l)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
