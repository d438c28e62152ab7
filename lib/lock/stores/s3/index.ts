// lockboard/s3: Lockboard's lock on S3 and the S3 lock store (list, inspect, force-release). Needs @aws-sdk/client-s3.
export { acquireS3Lock, withS3Lock, type S3AcquireOptions } from './acquire';
export { S3Lock, type S3ReleaseOutcome } from './lock';
export { S3LockStore, type S3StoreOptions } from './store';
export { S3Objects, s3Status } from './objects';
export type { LockView, StoreList, StoreReleaseResult, StoreReleaseOutcome } from '../../store';
