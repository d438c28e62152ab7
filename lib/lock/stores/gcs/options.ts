// The options of Lockboard's lock on Cloud Storage (acquireLock, withLock): the caller's Storage client, the bucket
// and the object name, with the protocol's timings; validated with messages that name the option and its range.
import type { Storage } from '@google-cloud/storage';
import { LockOptionsError } from '../../errors';
import {
  checkNumber,
  defaultIdentity,
  DEFAULT_AUDIT_PREFIX,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_TTL_MS,
  MAX_PURPOSE_LENGTH,
  validateLockName,
} from '../../holding/options';
import { MAX_TIMER_MS } from '../../time';
import type { LockInfo } from '../../types';

export interface LockOptions {
  storage: Storage;
  bucket: string;
  /** The full object name, e.g. `locks/deploy-prod`. */
  name: string;
  /** Unique per live holder; default `<hostname>:<pid>:<8 random hex>`. Pass a stable one to allow adoption after a restart. */
  identity?: string;
  ttlMs?: number;
  refreshIntervalMs?: number;
  maxRefreshFailures?: number;
  purpose?: string;
  /** Audit events under `prefix` (default `.lockboard/audit/`), or `false` to write none. */
  audit?: { prefix?: string } | false;
  /** Called while waiting, each time the holder is read. */
  onWait?: (holder: LockInfo) => void;
  /** Called when a storage request failed and will be retried after `retryInMs` (unreachable, 429, 5xx). */
  onStorageError?: (error: Error, retryInMs: number) => void;
  /** Per-request timeout for acquire and release requests (default 10 s). */
  requestTimeoutMs?: number;
}

export interface AcquireOptions extends LockOptions {
  /** undefined = wait without limit; 0 = try once. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ResolvedOptions extends AcquireOptions {
  identity: string;
  ttlMs: number;
  refreshIntervalMs: number;
  maxRefreshFailures: number;
  requestTimeoutMs: number;
  auditPrefix: string | null;
}

export function resolveOptions(options: AcquireOptions): ResolvedOptions {
  if (!options || typeof options !== 'object') throw new LockOptionsError('Expected an options object');
  const { storage, bucket, name } = options;
  if (!storage || typeof storage.bucket !== 'function') {
    throw new LockOptionsError('Expected `storage` to be a Storage instance from @google-cloud/storage');
  }
  if (typeof bucket !== 'string' || bucket === '')
    throw new LockOptionsError('Expected `bucket` to be a non-empty string');
  validateLockName(name);
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  checkNumber('ttlMs', ttlMs, 1000, MAX_TIMER_MS);
  const refreshIntervalMs = options.refreshIntervalMs ?? Math.floor(ttlMs / 8);
  checkNumber('refreshIntervalMs', refreshIntervalMs, 1);
  if (refreshIntervalMs > ttlMs / 3) {
    throw new LockOptionsError(
      `Expected \`refreshIntervalMs\` to be at most ttlMs / 3 (${Math.floor(ttlMs / 3)}), got ${refreshIntervalMs}`,
    );
  }
  const maxRefreshFailures = options.maxRefreshFailures ?? 3;
  checkNumber('maxRefreshFailures', maxRefreshFailures, 1);
  if (options.timeoutMs !== undefined) checkNumber('timeoutMs', options.timeoutMs, 0, Number.MAX_SAFE_INTEGER);
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  checkNumber('requestTimeoutMs', requestTimeoutMs, 1, MAX_TIMER_MS);
  const identity = options.identity ?? defaultIdentity();
  if (typeof identity !== 'string' || identity === '' || identity.length > 512) {
    throw new LockOptionsError('Expected `identity` to be a string of 1 to 512 characters');
  }
  if (
    options.purpose !== undefined &&
    (typeof options.purpose !== 'string' || options.purpose.length > MAX_PURPOSE_LENGTH)
  ) {
    throw new LockOptionsError(`Expected \`purpose\` to be a string of at most ${MAX_PURPOSE_LENGTH} characters`);
  }
  const auditPrefix = options.audit === false ? null : (options.audit?.prefix ?? DEFAULT_AUDIT_PREFIX);
  return { ...options, identity, ttlMs, refreshIntervalMs, maxRefreshFailures, requestTimeoutMs, auditPrefix };
}
