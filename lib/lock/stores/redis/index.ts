// lockboard/redis: Lockboard's lock on Redis, the dog-pile guard, an in-process store for unit tests, and the Redis
// lock store (list, inspect, force-release every common Redis lock format). Needs the `redis` package (node-redis).
export { acquireRedisLock, computeOnce, withRedisLock, type RedisAcquireOptions } from './acquire';
export { RedisLock, fenceKeyFor, type RedisLockBackend } from './lock';
export { MemoryRedisLocks } from './memory';
export { RedisLockStore, type RedisStoreOptions } from './store';
export { readRedisKey, versionOf, type RedisFormat } from './formats';
export type { RedisClientLike } from './conn';
