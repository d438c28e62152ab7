// lockboard/dynamodb: locks in DynamoDB (Terraform's lock table, the AWS lock-client family, Lockboard's own).
import { judgedStoreClass, type Judged } from '../../verdict/judged-store';
import { DynamoLockStore as DynamoStoreReads } from './store';
export { acquireDynamoLock, withDynamoLock, type DynamoAcquireOptions } from './acquire';
export { DynamoLock } from './lock';
export { type DynamoStoreOptions } from './store';
/** The store's class, judged: every view it hands out carries its verdict (lib/lock/verdict/judged-store.ts). */
export const DynamoLockStore = judgedStoreClass(DynamoStoreReads);
export type DynamoLockStore = Judged<DynamoStoreReads>;
export { createTable } from './audit';
export { DEFAULT_AUDIT_TABLE, parseDynamoSource } from './source';
export { readItem, leaseOf, type DynamoReading } from './formats';
export { TableMissingError } from './table';
export type { LockView, StorePage, StoreReleaseResult, StoreReleaseOutcome } from '../../store';
