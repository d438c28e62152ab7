// lockboard: the store-neutral lock library. Open a source by its URL (gs://, s3://, azure://, redis://, postgres://,
// mysql://, dynamodb://, kubernetes://, file://, zookeeper://, etcd://: every store the registry knows), then acquire,
// hold, inspect, list and force-release on it through the one LockStore interface (docs/stores.md; these verbs:
// test/lock/neutral-api.test.ts). Each store's own API is its subpath (`lockboard/gcs`, `lockboard/s3`, …); its SDK
// is loaded only when a source of it is opened.
import { holdAndReport } from './holding/hold';
import { listAll, type FullListing } from './list-all';
import type { LockStore, LockView, ReleaseRequest, StoreReleaseResult } from './store';
import { LockOptionsError } from './errors';
import {
  acquireOn,
  openSource,
  parseSource,
  splitLockUrl,
  type HeldLock,
  type OpenOptions,
  type RunOptions,
} from './stores';

/** Where a source's store finds its configuration: the variables it reads (the caller passes its environment; the library reads none), one-shot by default. */
export interface SourceOptions extends Partial<Omit<OpenOptions, 'env'>> {
  /** Variables the store reads (AWS_REGION, LOCKBOARD_GCS_ENDPOINT, PG*, …); default none. */
  env?: Record<string, string | undefined>;
}

/** Lockboard's own lock on any store: the run options, with an optional `signal`. */
export type AcquireOnOptions = SourceOptions & Omit<RunOptions, 'signal'> & { signal?: AbortSignal };

/** Opens the source at `url` as a LockStore (list, inspect, forceRelease, readAudit, record); `close()` it after. */
export function openLockSource(url: string, o: SourceOptions = {}): Promise<LockStore> {
  const env = o.env ?? {};
  return openSource(parseSource(url, env), { role: 'cli', ...o, env });
}

/** Takes Lockboard's own lock `name` on the source at `url` (or the lock's whole URL, `gs://bucket/locks/a`). */
export async function acquireLockOn(url: string, name: string | undefined, o: AcquireOnOptions): Promise<HeldLock> {
  const env = o.env ?? {};
  const at = splitLockUrl(url, name);
  if (at.name === undefined)
    throw new LockOptionsError(`Expected a lock name, or a lock's whole URL, got ${JSON.stringify(url)}`);
  const signal = o.signal ?? new AbortController().signal;
  return acquireOn(parseSource(at.source, env), at.name, { role: 'cli', ...o, env, signal });
}

/** Runs `fn` holding the lock `name` on the source at `url`, then releases it and records ok or the error. */
export async function withLockOn<T>(
  url: string,
  name: string | undefined,
  o: AcquireOnOptions,
  fn: (lock: HeldLock) => Promise<T>,
): Promise<T> {
  return holdAndReport(await acquireLockOn(url, name, o), fn);
}

/** The lock `name` on the source at `url` as its store shows it; null when absent. */
export function inspectLockOn(url: string, name: string, o: SourceOptions = {}): Promise<LockView | null> {
  return onSource(url, o, (store) => store.inspect(name));
}

/** Every lock on the source at `url`, page by page, with the store's time and what was skipped. */
export function listLocksOn(url: string, o: SourceOptions = {}): Promise<FullListing> {
  return onSource(url, o, listAll);
}

/** One guarded force-release on the source at `url`: the store's one conditional mutation on the version seen. */
export function forceReleaseLockOn(
  url: string,
  request: ReleaseRequest,
  o: SourceOptions = {},
): Promise<StoreReleaseResult> {
  return onSource(url, o, (store) => store.forceRelease(request));
}

async function onSource<T>(url: string, o: SourceOptions, act: (store: LockStore) => Promise<T>): Promise<T> {
  const store = await openLockSource(url, o);
  try {
    return await act(store);
  } finally {
    await store.close();
  }
}

export {
  parseSource,
  splitLockUrl,
  SourceError,
  SOURCE_FORMS,
  STORES,
  type HeldLock,
  type OpenOptions,
  type RunOptions,
  type SourceSpec,
  type StoreDefinition,
} from './stores';
export type { FullListing } from './list-all';
export {
  assertVersion,
  isListedLock,
  VersionShapeError,
  type LockStore,
  type LockView,
  type LockWaiter,
  type ReleaseRequest,
  type StorePage,
  type StoreReleaseOutcome,
  type StoreReleaseResult,
  type VersionShape,
} from './store';
export { describeOutcome, OUTCOME_EXIT, OUTCOME_MESSAGES } from './outcomes';
export {
  AuditWriteError,
  LockAbortError,
  LockLostError,
  LockOptionsError,
  LockTimeoutError,
  ReleaseIncompleteError,
  type LockLostReason,
} from './errors';
export type { AuditEvent, AuditEventKind, AuditRecord } from './audit/record';
export { DEFAULT_AUDIT_PREFIX, DEFAULT_TTL_MS, validateLockName } from './holding/options';
export type { LockFormat, LockHealth, LockInfo } from './types';
export { LOCK_HEALTHS } from './types';
export { inspectLock, LOCKBOARD_FORMAT, type InspectOptions } from './objects/inspect';
export { FORMATS, classifyObject, formatById, type LockFormatModule } from './objects/formats';

/**
 * @deprecated use `lockboard/gcs`: Lockboard's lock on Cloud Storage, kept importable from the root for programs
 * written before the root became store-neutral.
 */
export {
  acquireLock,
  withLock,
  Lock,
  listLocks,
  getLock,
  serverTimeOf,
  LIST_FIELDS,
  forceReleaseLock,
  auditObjectName,
  listAuditEvents,
  GcsCallError,
  type ReleaseOutcome,
  type ListLocksOptions,
  type LockList,
  type SkippedObject,
  type ForceReleaseOptions,
  type ForceReleaseOutcome,
  type ForceReleaseResult,
  type ListAuditOptions,
  type AcquireOptions,
  type GcsObjectResource,
  type LockOptions,
} from './stores/gcs';
