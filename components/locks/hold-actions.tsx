'use client';
// A lock page's hold: the hold in its own look with "End hold" (POST /api/locks/unhold, exactly the version shown:
// a hold replaced since is refused, nothing deleted), or "Hold…" on a free lock. Operators only (`canHold`).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiFetch, refreshAfterRelease } from '@/lib/console/queries';
import { holdOf } from '@/lib/lock/hold-marker';
import type { LockInfo } from '@/lib/lock/types';
import { formatTime } from '@/lib/text/format';
import { Button } from '../ui/button';
import { HoldDialog } from './hold-dialog';
import { HoldOwner } from './hold-owner';

export function HoldActions(p: {
  name: string;
  bucket?: string;
  /** The lock as shown; null: free. */
  lock: LockInfo | null | undefined;
  serverNow: number;
  canHold: boolean;
  onOpen: () => void;
  /** What was done, for the page to say (null: nothing). */
  onClose: (said: string | null) => void;
}) {
  const { lock, name } = p;
  const [holding, setHolding] = useState(false);
  const queryClient = useQueryClient();
  const end = useMutation({
    mutationFn: (seen: LockInfo) =>
      apiFetch<{ outcome: 'ended' }>('/api/locks/unhold', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, ...(p.bucket ? { bucket: p.bucket } : {}), version: seen.version }),
      }),
    onMutate: p.onOpen,
    onSuccess: () => p.onClose(`Ended the hold on ${name}. Recorded in the audit trail (hold-ended).`),
    onSettled: () => refreshAfterRelease(queryClient),
  });
  const free = lock === null || lock?.health === 'free';
  if (lock && holdOf(lock))
    return (
      <div className="space-y-2 rounded-md p-3 ring-1 ring-violet-300 dark:ring-violet-700">
        <p className="text-sm">
          <HoldOwner lock={lock} serverNow={p.serverNow} />
        </p>
        {p.canHold && (
          <Button onClick={() => end.mutate(lock)} disabled={end.isPending}>
            {end.isPending ? 'Ending…' : 'End hold'}
          </Button>
        )}
        {end.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {end.error.message}
          </p>
        )}
      </div>
    );
  if (!free || !p.canHold) return null;
  return (
    <>
      <Button
        onClick={() => {
          p.onOpen();
          setHolding(true);
        }}
      >
        Hold…
      </Button>
      {holding && (
        <HoldDialog
          name={name}
          bucket={p.bucket}
          onClose={(held) => {
            setHolding(false);
            p.onClose(
              held &&
                `Held ${name} until ${formatTime(held.until)} (${held.format}).${held.auditError ? ` Not recorded in the audit trail: ${held.auditError}` : ''}`,
            );
          }}
        />
      )}
    </>
  );
}
