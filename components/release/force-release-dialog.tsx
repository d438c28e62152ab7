'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { versionText } from '@/lib/text/format';
import type { LockInfo } from '@/lib/lock/types';
import { apiFetch, ApiClientError, refreshAfterRelease } from '@/lib/console/queries';
import { needsTypedName } from '@/lib/console/release-care';
import { ConflictNotice, type Conflict } from './release-conflict';
import { CliVersion } from '../cli-version';
import { ReleaseSummary } from './release-summary';
import { Button } from '../ui/button';
import { ModalForm, ReasonField } from '../ui/modal-form';
import { SafeText } from '../ui/safe-text';
import { seenLockBody } from '@/lib/console/release-body';

/** What the release route answers on success. */
export interface Released {
  outcome: 'released';
  confirmed: boolean;
  message: string;
  audit?: { attempt?: string; outcome?: string; outcomeError?: string };
  /** The same lock in other stores, released with it. */
  pairs?: { source: string; name: string; outcome: string }[];
}

interface Props {
  lock: LockInfo;
  serverNow: number;
  onClose: (released: Released | null) => void;
}

/** The confirmation shown after a release: what happened and what the audit trail holds. */
export function releasedNotice(lock: LockInfo, r: Released): string {
  const what = r.confirmed
    ? `Released ${lock.name} (${versionText(lock)}).`
    : `${lock.name} (${versionText(lock)}) is released. ${r.message.replace(/^The lock is released\. /, '')}`;
  const audit = r.audit?.attempt
    ? r.audit.outcome
      ? ' Recorded in the audit trail (attempt and outcome).'
      : ' The attempt is in the audit trail; recording the outcome failed.'
    : '';
  const pairs = (r.pairs ?? []).map((p) => ` Its pair ${p.source} ${p.name}: ${p.outcome}.`).join('');
  return what + audit + pairs;
}

/** Force-release one version. On 409 it shows what changed and never retries by itself. */
export function ForceReleaseDialog({ lock, serverNow, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const queryClient = useQueryClient();
  const [target, setTarget] = useState(lock);
  const [reason, setReason] = useState('');
  const [typed, setTyped] = useState('');
  // a consequence the store says must be accepted explicitly (a leader election's old leader keeps leading)
  const [accepted, setAccepted] = useState(false);
  const mustAccept = target.terms?.twoLeaders;
  const [conflict, setConflict] = useState<Conflict | null>(null);
  // The same rule as a bulk release's (lib/console/release-care.ts): a live holder, unknown liveness, an ended session
  const needsTyping = needsTypedName(target);

  useEffect(() => {
    dialog.current?.showModal();
    // the reason comes first for the keyboard (the copy buttons of the CLI command sit above it)
    dialog.current?.querySelector('textarea')?.focus();
  }, []);
  // When a conflict replaces the form, focus moves to its next action (never lost to the page)
  const closeButton = useRef<HTMLButtonElement>(null);
  const reviewButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (conflict) (reviewButton.current ?? closeButton.current)?.focus();
  }, [conflict]);

  const release = useMutation({
    mutationFn: (seen: LockInfo) =>
      apiFetch<Released>('/api/locks/release', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...seenLockBody(seen),
          reason,
          ...(mustAccept && accepted ? { acceptTwoLeaders: true } : {}),
        }),
      }),
    onSuccess: (result) => onClose(result),
    onError: (err) => {
      if (err instanceof ApiClientError && (err.status === 409 || err.status === 410 || err.status === 422)) {
        const body = err.body as { outcome: Conflict['outcome']; current?: LockInfo; detail?: string };
        setConflict({ outcome: body.outcome, message: err.message, current: body.current, detail: body.detail });
      }
    },
    onSettled: () => refreshAfterRelease(queryClient),
  });

  const canSubmit =
    reason.trim().length > 0 &&
    (!needsTyping || typed === target.name) &&
    (!mustAccept || accepted) &&
    !release.isPending &&
    !conflict;

  return (
    <ModalForm
      dialogRef={dialog}
      labelledBy="release-title"
      width="w-[min(36rem,95vw)]"
      onClose={() => onClose(null)}
      onSubmit={() => {
        if (canSubmit) release.mutate(target);
      }}
    >
      <h2 id="release-title" className="text-lg font-semibold">
        Force-release{' '}
        <span className="font-mono">
          <SafeText text={target.name} />
        </span>
      </h2>
      <ReleaseSummary target={target} serverNow={serverNow} />
      <CliVersion lock={target} />
      {conflict ? (
        <ConflictNotice
          conflict={conflict}
          reviewRef={reviewButton}
          onRetry={(current) => {
            setTarget(current);
            setConflict(null);
          }}
          onReleaseAnyway={(current) => {
            // Same generation only (a `refreshed` conflict): the reason and typed name still apply.
            if (current.generation !== target.generation) return;
            setTarget(current);
            setConflict(null);
            release.mutate(current);
          }}
        />
      ) : (
        <>
          <ReasonField
            label="Reason (recorded in the audit trail)"
            value={reason}
            onChange={setReason}
            placeholder="e.g. runner died, pipeline cancelled"
          />
          {mustAccept && (
            <label className="flex gap-2 text-sm">
              <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} />
              <span>{mustAccept}</span>
            </label>
          )}
          {needsTyping && (
            <label className="block text-sm">
              {target.health === 'unknown'
                ? 'Its liveness cannot be judged (no TTL in this format).'
                : target.health === 'healthy' || target.health === 'long-held'
                  ? 'The holder is alive.'
                  : (target.terms?.effect ?? '')}{' '}
              Type the lock name to confirm:{' '}
              <span className="font-mono">
                <SafeText text={target.name} />
              </span>
              <input
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                className="mt-1 w-full rounded-md border border-zinc-300 bg-transparent p-2 font-mono dark:border-zinc-600"
                aria-label="Type the lock name to confirm"
              />
            </label>
          )}
        </>
      )}
      {release.isError && !conflict && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {release.error.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button ref={closeButton} onClick={() => dialog.current?.close()}>
          {conflict ? 'Close' : 'Cancel'}
        </Button>
        {!conflict && (
          <Button type="submit" variant="danger" disabled={!canSubmit}>
            {release.isPending ? 'Releasing…' : 'Force-release'}
          </Button>
        )}
      </div>
    </ModalForm>
  );
}
