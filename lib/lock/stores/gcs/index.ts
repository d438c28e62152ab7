// lockboard/gcs: Lockboard's lock on Cloud Storage (one object per lock, every write conditioned on its generation and
// metageneration), the reads that list and inspect lock objects of every known format, the guarded force-release and
// the audit trail as objects in the bucket; and the GCS lock store. Needs @google-cloud/storage.
import { judgedStoreClass, type Judged } from '../../verdict/judged-store';
import { GcsLockStore as GcsStoreReads } from './store';
export { acquireLock, withLock } from './acquire';
export { Lock, type ReleaseOutcome } from './lock';
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
export { auditObjectName } from './audit';
export { listAuditEvents, type AuditRecord, type ListAuditOptions } from './audit-read';
export { GcsCallError } from './client';
export { type GcsStoreOptions } from './store';
/** The store's class, judged: every view it hands out carries its verdict (lib/lock/verdict/judged-store.ts). */
export const GcsLockStore = judgedStoreClass(GcsStoreReads);
export type GcsLockStore = Judged<GcsStoreReads>;
export { parseGcsSource } from './source';
export type { GcsObjectResource } from '../../types';
export type { AcquireOptions, LockOptions } from './options';
export type { LockView, StorePage, StoreReleaseResult, StoreReleaseOutcome } from '../../store';
