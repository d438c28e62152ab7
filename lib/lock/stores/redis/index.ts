// lockboard/redis: Lockboard's lock on Redis, the dog-pile guard, an in-process store for unit tests, and the Redis
// lock store (list, inspect, force-release every common Redis lock format). Needs the `redis` package (node-redis).
import { judgedStoreClass, type Judged } from '../../verdict/judged-store';
import { RedisLockStore as RedisStoreReads } from './store';
export { acquireRedisLock, computeOnce, withRedisLock, type RedisAcquireOptions } from './acquire';
export { RedisLock, fenceKeyFor, type RedisLockBackend } from './lock';
export { MemoryRedisLocks } from './memory';
export { type RedisStoreOptions } from './store';
/** The store's class, judged: every view it hands out carries its verdict (lib/lock/verdict/judged-store.ts). */
export const RedisLockStore = judgedStoreClass(RedisStoreReads);
export type RedisLockStore = Judged<RedisStoreReads>;
export { readRedisKey, versionOf, type RedisFormat } from './formats';
export type { RedisClientLike } from './conn';
