// lockboard/dynamodb: locks in DynamoDB (Terraform's lock table, the AWS lock-client family, Lockboard's own).
export { acquireDynamoLock, withDynamoLock, type DynamoAcquireOptions } from './acquire';
export { DynamoLock } from './lock';
export { DynamoLockStore, type DynamoStoreOptions } from './store';
export { createTable } from './audit';
export { DEFAULT_AUDIT_TABLE, parseDynamoSource } from './source';
export { readItem, leaseOf, type DynamoReading } from './formats';
export { TableMissingError } from './table';
export type { LockView, StorePage, StoreReleaseResult, StoreReleaseOutcome } from '../../store';
