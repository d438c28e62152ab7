'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { formatDuration, versionText } from '@/lib/format';
import { HEALTH_MEANING, RELEASE_ADVICE } from '@/lib/health';
import { apiFetch, ApiClientError } from '@/lib/queries';
import { HealthBadge } from './health-badge';
import { Button } from './ui/button';
import { ModalForm, ReasonField } from './ui/modal-form';

/** What the release route answers on success. */
export interface Released {
  outcome: 'released';
  confirmed: boolean;
  message: string;
  audit?: { attempt?: string; outcome?: string; outcomeError?: string };
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
  return what + audit;
}

interface Conflict {
  outcome: 'changed' | 'refreshed' | 'gone' | 'not-a-lock';
  message: string;
  current?: LockInfo;
}

/** Force-release one generation. On 409 it shows what changed and never retries by itself. */
export function ForceReleaseDialog({ lock, serverNow, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const queryClient = useQueryClient();
  const [target, setTarget] = useState(lock);
  const [reason, setReason] = useState('');
  const [typed, setTyped] = useState('');
  const [conflict, setConflict] = useState<Conflict | null>(null);
  // A live holder, or one whose liveness cannot be judged (Terraform, Pulumi, plain), needs the typed name.
  // An advisory lock's release ends the holder's whole session: always typed.
  const needsTyping =
    target.health === 'healthy' ||
    target.health === 'long-held' ||
    target.health === 'unknown' ||
    target.terms?.confirmByName === true;

  useEffect(() => {
    dialog.current?.showModal();
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
          name: seen.name,
          bucket: seen.bucket,
          source: seen.source,
          version: seen.version,
          identity: seen.identity,
          reason,
        }),
      }),
    onSuccess: (result) => onClose(result),
    onError: (err) => {
      if (err instanceof ApiClientError && (err.status === 409 || err.status === 410 || err.status === 422)) {
        const body = err.body as { outcome: Conflict['outcome']; current?: LockInfo };
        setConflict({ outcome: body.outcome, message: err.message, current: body.current });
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['locks'] }),
  });

  const canSubmit =
    reason.trim().length > 0 && (!needsTyping || typed === target.name) && !release.isPending && !conflict;

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
        Force-release <span className="font-mono">{target.name}</span>
      </h2>
      <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-zinc-500">Holder</dt>
        <dd data-testid="dialog-holder">{target.identity ?? 'unknown'}</dd>
        {target.purpose && (
          <>
            <dt className="text-zinc-500">Purpose</dt>
            <dd>{target.purpose}</dd>
          </>
        )}
        <dt className="text-zinc-500">Format</dt>
        <dd data-testid="dialog-format">{target.formatLabel}</dd>
        {target.details.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-zinc-500">{label}</dt>
            <dd className="break-all">{value}</dd>
          </div>
        ))}
        <dt className="text-zinc-500">Health</dt>
        <dd>
          <HealthBadge health={target.health} />{' '}
          <span className="text-xs text-zinc-500">{HEALTH_MEANING[target.health]}</span>
        </dd>
        <dt className="text-zinc-500">Held for</dt>
        <dd className="tabular">{formatDuration(serverNow - Date.parse(target.createdAt))}</dd>
        <dt className="text-zinc-500">Version</dt>
        <dd className="font-mono text-xs" data-testid="dialog-version">
          {versionText(target)}
        </dd>
      </dl>
      {target.terms && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="dialog-store-rule">
          {target.terms.rule} {target.terms.effect}
        </p>
      )}
      <p
        role="note"
        className={`rounded-md p-3 text-sm ${target.health === 'expired' ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200' : 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200'}`}
      >
        <strong>Safe to clear? </strong>
        {RELEASE_ADVICE[target.health].replace(/^Safe to clear: /, '')} Only this version is cleared: if someone else
        takes the lock meanwhile, nothing of theirs is touched.
      </p>
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="dialog-release-note">
        {target.releaseNote}
      </p>
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
          {needsTyping && (
            <label className="block text-sm">
              {target.health === 'unknown'
                ? 'Its liveness cannot be judged (no TTL in this format).'
                : 'The holder is alive.'}{' '}
              Type the lock name to confirm: <span className="font-mono">{target.name}</span>
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

function ConflictNotice({
  conflict,
  reviewRef,
  onRetry,
  onReleaseAnyway,
}: {
  conflict: Conflict;
  reviewRef: React.Ref<HTMLButtonElement>;
  onRetry: (current: LockInfo) => void;
  onReleaseAnyway: (current: LockInfo) => void;
}) {
  const current = conflict.current;
  return (
    <div
      role="alert"
      data-testid="release-conflict"
      className="space-y-2 rounded-md bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-200"
    >
      <p className="font-medium">{conflict.message}</p>
      {conflict.outcome === 'changed' && current && (
        <p>
          Now held by <strong>{current.identity ?? 'unknown'}</strong> (
          <span className="font-mono">{versionText(current)}</span>). Their lock is intact.
        </p>
      )}
      {conflict.outcome === 'refreshed' && current && (
        <>
          <p>
            The holder refreshed: the lock is now at <span className="font-mono">{versionText(current)}</span>. It is
            alive.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="danger" onClick={() => onReleaseAnyway(current)} data-testid="release-anyway">
              Release this generation anyway
            </Button>
            <Button ref={reviewRef} onClick={() => onRetry(current)}>
              Review again at {versionText(current)}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
