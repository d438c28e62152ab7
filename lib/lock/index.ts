// The lock core's public API. Programs, the console and the CLI all use these.
export { acquireLock } from './stores/gcs/acquire';
export { withLock } from './stores/gcs/with-lock';
export { Lock, type ReleaseOutcome } from './stores/gcs/lock';
export { inspectLock, LOCKBOARD_FORMAT, type InspectOptions } from './objects/inspect';
export {
  listLocks,
  getLock,
  serverTimeOf,
  LIST_FIELDS,
  type ListLocksOptions,
  type LockList,
  type SkippedObject,
} from './stores/gcs/list';
export {
  forceReleaseLock,
  type ForceReleaseOptions,
  type ForceReleaseOutcome,
  type ForceReleaseResult,
} from './stores/gcs/force-release';
export {
  AuditWriteError,
  LockAbortError,
  LockLostError,
  LockOptionsError,
  LockTimeoutError,
  type LockLostReason,
} from './errors';
export { auditObjectName, type AuditEvent, type AuditEventKind } from './stores/gcs/audit';
export { DEFAULT_AUDIT_PREFIX, DEFAULT_TTL_MS, validateLockName } from './holding/options';
export { GcsCallError } from './stores/gcs/client';
export type { AcquireOptions, GcsObjectResource, LockFormat, LockHealth, LockInfo, LockOptions } from './types';
export { LOCK_HEALTHS } from './types';
export { FORMATS, classifyObject, formatById, type LockFormatModule } from './objects/formats';
export { listAuditEvents, type AuditRecord, type ListAuditOptions } from './stores/gcs/audit-read';
