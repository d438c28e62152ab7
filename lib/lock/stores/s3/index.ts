// lockboard/s3: Lockboard's lock on S3 and the S3 lock store (list, inspect, force-release). Needs @aws-sdk/client-s3.
import { judgedStoreClass, type Judged } from '../../verdict/judged-store';
import { S3LockStore as S3StoreReads } from './store';
export { acquireS3Lock, withS3Lock, type S3AcquireOptions } from './acquire';
export { S3Lock, type S3ReleaseOutcome } from './lock';
export { type S3StoreOptions } from './store';
/** The store's class, judged: every view it hands out carries its verdict (lib/lock/verdict/judged-store.ts). */
export const S3LockStore = judgedStoreClass(S3StoreReads);
export type S3LockStore = Judged<S3StoreReads>;
export { S3Objects, s3Status } from './objects';
export type { LockView, StoreList, StoreReleaseResult, StoreReleaseOutcome } from '../../store';
