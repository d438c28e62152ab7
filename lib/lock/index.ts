// The lock core's public API. Programs, the console and the CLI all use these.
export { acquireLock } from './acquire';
export { withLock } from './with-lock';
export { Lock, type ReleaseOutcome } from './lock';
export { inspectLock, LOCKBOARD_FORMAT, type InspectOptions } from './inspect';
export {
  listLocks,
  getLock,
  serverTimeOf,
  LIST_FIELDS,
  type ListLocksOptions,
  type LockList,
  type SkippedObject,
} from './list';
export {
  forceReleaseLock,
  type ForceReleaseOptions,
  type ForceReleaseOutcome,
  type ForceReleaseResult,
} from './force-release';
export {
  AuditWriteError,
  LockAbortError,
  LockLostError,
  LockOptionsError,
  LockTimeoutError,
  type LockLostReason,
} from './errors';
export { auditObjectName, type AuditEvent, type AuditEventKind } from './audit';
export { DEFAULT_AUDIT_PREFIX, DEFAULT_TTL_MS, validateLockName } from './options';
export { GcsCallError } from './gcs';
export type { AcquireOptions, GcsObjectResource, LockFormat, LockHealth, LockInfo, LockOptions } from './types';
export { LOCK_HEALTHS } from './types';
export { FORMATS, classifyObject, formatById, type LockFormatModule } from './formats';
export { listAuditEvents, type AuditRecord, type ListAuditOptions } from './audit-read';
