'use client';

// The force-release dialog's state: the version aimed at, the answers to its questions, and the release itself. A
// 409, 410 or 422 becomes the conflict shown in place of the form; it is never retried by itself.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { apiFetch, refreshAfterRelease } from '@/lib/console/queries';
import { seenLockBody } from '@/lib/console/release-body';
import { conflictOf, type Conflict } from './release-conflict';
import type { Released } from './released';
import { useReleaseFields } from './use-release-fields';

export function useForceRelease(lock: LockInfo, onClose: (released: Released | null) => void) {
  const queryClient = useQueryClient();
  const [target, setTarget] = useState(lock);
  const fields = useReleaseFields(target);
  const [conflict, setConflict] = useState<Conflict | null>(null);

  const release = useMutation({
    mutationFn: (seen: LockInfo) =>
      apiFetch<Released>('/api/locks/release', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...seenLockBody(seen),
          reason: fields.reason,
          ...(fields.mustAccept && fields.accepted ? { acceptTwoLeaders: true } : {}),
          ...(fields.holderAlive && fields.aliveAcknowledged ? { acknowledgeAlive: true } : {}),
        }),
      }),
    onSuccess: (result) => onClose(result),
    onError: (err) => {
      const found = conflictOf(err);
      if (found) setConflict(found);
    },
    onSettled: () => refreshAfterRelease(queryClient),
  });

  const canSubmit = fields.filled && !release.isPending && !conflict;
  /** Review the lock again at the version it is at now. */
  const retry = (current: LockInfo) => {
    setTarget(current);
    setConflict(null);
  };
  /** Same generation only (a `refreshed` conflict): the reason and typed name still apply. */
  const releaseAnyway = (current: LockInfo) => {
    if (current.generation !== target.generation) return;
    retry(current);
    release.mutate(current);
  };
  const submit = () => {
    if (canSubmit) release.mutate(target);
  };
  return { target, fields, conflict, release, canSubmit, retry, releaseAnyway, submit };
}
