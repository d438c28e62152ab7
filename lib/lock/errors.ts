import type { LockInfo } from './types';
import { branded } from './support/branded';

/** Invalid options passed to the lock core; the message names the option and the allowed range. */
export class LockOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockOptionsError';
  }
}

/** The lock was not acquired before `timeoutMs` (or at once, with `timeoutMs: 0`). */
export class LockTimeoutError extends Error {
  constructor(
    readonly lockName: string,
    readonly holder: LockInfo | null,
    readonly waitedMs: number,
  ) {
    super(`Timed out after ${waitedMs} ms waiting for lock "${lockName}": ${describeHolder(holder)}`);
    this.name = 'LockTimeoutError';
  }
}

export type LockLostReason = 'taken' | 'released-by-operator' | 'refresh-failed';

/** The lock is no longer ours. The handle's `signal` aborts with this error. */
export class LockLostError extends Error {
  constructor(
    readonly lockName: string,
    readonly reason: LockLostReason,
    detail?: string,
  ) {
    super(`Lock "${lockName}" was lost (${reason})${detail ? `: ${detail}` : ''}`);
    this.name = 'LockLostError';
  }
}

/**
 * A force-release was refused because its attempt could not be recorded in the audit trail first: nothing was
 * deleted. `cause` is the storage error (e.g. 403 without create permission on the audit prefix, or 503s).
 */
export class AuditWriteError extends Error {
  constructor(
    readonly lockName: string,
    readonly auditPrefix: string,
    readonly cause: unknown,
    /** Where the trail is and how to let Lockboard write it, in the store's words (GCS's audit prefix by default). */
    words: { where: string; fix: string } = {
      where: `under the audit prefix "${auditPrefix}"`,
      fix: 'grant create permission on the audit prefix.',
    },
  ) {
    super(
      `The force-release of "${lockName}" was not attempted: it could not be recorded ${words.where} ` +
        `first (${(cause as Error)?.message ?? String(cause)}). Nothing was deleted. Retry, or ${words.fix}`,
    );
    this.name = 'AuditWriteError';
  }
}

/**
 * A force-release whose store mutation failed part-way (Azure: the lock info removed, the lease release failing):
 * `state` says what the lock was left in and what clears it; the failure is in the trail (`force-release-failed`).
 */
export class ReleaseIncompleteError extends Error {
  constructor(
    readonly lockName: string,
    readonly state: string,
    readonly cause: unknown,
  ) {
    super(
      `The force-release of "${lockName}" failed part-way (${(cause as Error)?.message ?? String(cause)}). ${state}`,
    );
    this.name = 'ReleaseIncompleteError';
  }
}

/** Waiting for a lock stopped because the caller's signal aborted. */
export class LockAbortError extends Error {
  constructor(
    readonly lockName: string,
    readonly cause?: unknown,
  ) {
    super(`Stopped waiting for lock "${lockName}": the operation was aborted`);
    this.name = 'AbortError';
  }
}

function describeHolder(holder: LockInfo | null): string {
  if (!holder) return 'the lock is contended but its holder could not be read';
  const who = holder.identity ?? 'an unknown holder';
  const purpose = holder.purpose ? ` (${holder.purpose})` : '';
  const stale = holder.expiresAt
    ? `; it becomes stale at ${holder.expiresAt} unless refreshed`
    : '; it never becomes stale by itself (foreign format): an operator must clear it';
  return `held by ${who}${purpose} since ${holder.createdAt}, generation ${holder.generation}${stale}`;
}

branded(LockOptionsError, 'LockOptionsError');
branded(AuditWriteError, 'AuditWriteError');
branded(ReleaseIncompleteError, 'ReleaseIncompleteError');
