'use client';
// What the release dialog shows when the lock changed since it was viewed: who holds it now, or that its holder
// refreshed (alive), with a review of the new version. It never retries by itself.
import { versionText } from '@/lib/text/format';
import type { LockInfo } from '@/lib/lock/types';
import { ApiClientError } from '@/lib/console/queries';
import { Button } from '../ui/button';
import { SafeText } from '../ui/safe-text';

export interface Conflict {
  outcome: 'changed' | 'refreshed' | 'gone' | 'not-a-lock';
  message: string;
  current?: LockInfo;
  /** The store's own words for the refusal (a live process holding a lock file): the message says it all. */
  detail?: string;
}

/** The conflict a refused release met (409 changed or refreshed, 410 gone, 422 not a lock), or null for any other error. */
export function conflictOf(err: Error): Conflict | null {
  if (!(err instanceof ApiClientError && (err.status === 409 || err.status === 410 || err.status === 422))) return null;
  const body = err.body as { outcome: Conflict['outcome']; current?: LockInfo; detail?: string };
  return { outcome: body.outcome, message: err.message, current: body.current, detail: body.detail };
}

export function ConflictNotice({
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
      {current?.terms?.conflict && <p data-testid="release-conflict-store">{current.terms.conflict}</p>}
      {conflict.outcome === 'changed' && current && (
        <p>
          Now held by{' '}
          <strong>{current.identity !== undefined ? <SafeText text={current.identity} /> : 'unknown'}</strong> (
          <span className="font-mono">{versionText(current)}</span>). Their lock is intact.
        </p>
      )}
      {conflict.outcome === 'refreshed' && !conflict.detail && current && (
        <>
          <p>
            The holder refreshed: the lock is now at <span className="font-mono">{versionText(current)}</span>. It is
            alive.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="danger" onClick={() => onReleaseAnyway(current)} data-testid="release-anyway">
              Release this version anyway
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
