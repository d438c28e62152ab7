// acquireRedisLock / withRedisLock / computeOnce: the protocol's acquire, wait and outcome on Redis (or on the
// in-process MemoryRedisLocks). Waiting reads the holder with backoff (no repeated SETs piling on), until timeoutMs.
import { sleep } from '../../holding/backoff';
import { LockOptionsError, LockTimeoutError } from '../../errors';
import { holdAndRelease } from '../../holding/hold';
import { defaultIdentity, validateLockName, type LeaseRequest } from '../../holding/options';
import { MAX_TIMER_MS, monotonicNow } from '../../time';
import { waitForLock } from '../../holding/wait';
import type { RedisClientLike } from './conn';
import { fenceKeyFor, lockValue, redisBackend, RedisLock, type RedisLockBackend } from './lock';
import { MemoryRedisLocks } from './memory';
import { RedisLockStore } from './store';

export interface RedisAcquireOptions extends LeaseRequest {
  /** A connected node-redis client or cluster, or a MemoryRedisLocks for tests. */
  client: RedisClientLike | MemoryRedisLocks;
  /** The key, e.g. `locks:deploy-prod`. */
  name: string;
  /** Audit events in this stream (default `lockboard:audit`), or false. Ignored for MemoryRedisLocks. */
  audit?: { stream?: string } | false;
}

export async function acquireRedisLock(o: RedisAcquireOptions): Promise<RedisLock> {
  const settings = settingsOf(o);
  const backend: RedisLockBackend = o.client instanceof MemoryRedisLocks ? o.client : redisBackend(o.client);
  const store = o.client instanceof MemoryRedisLocks || o.audit === false ? undefined : storeOf(o);
  return waitForLock(
    o,
    async () => {
      const template = lockValue(settings, '@TOKEN@', Date.now());
      const token = await backend.tryAcquire(o.name, fenceKeyFor(o.name), template, settings.ttlMs);
      if (token === null) return null;
      void store
        ?.record({ event: 'acquired', lock: o.name, identity: settings.identity, generation: token })
        .catch(() => undefined);
      return new RedisLock(backend, settings, token, template.replace('@TOKEN@', token));
    },
    async () => (store ? store.inspect(o.name) : null),
  );
}

/** Runs `fn` while holding the lock, releases it after, and records the outcome (ok / error) in the stream. */
export async function withRedisLock<T>(o: RedisAcquireOptions, fn: (lock: RedisLock) => Promise<T>): Promise<T> {
  const lock = await acquireRedisLock(o);
  const untracked = o.client instanceof MemoryRedisLocks || o.audit === false;
  const trail = {
    lock: o.name,
    record: (e: Record<string, string>) =>
      storeOf(o)
        .record(e)
        .catch(() => undefined),
  };
  return holdAndRelease(lock, fn, untracked ? null : trail);
}

/**
 * The dog-pile guard: returns the cached value under `key`, or computes it once while other callers wait for it
 * (instead of all computing it at once), storing it for `cacheTtlMs`. Callers that wait longer than `timeoutMs`
 * compute it themselves. Needs a real Redis client (the value is stored there).
 */
export async function computeOnce(
  o: { client: RedisClientLike; key: string; cacheTtlMs: number; lockTtlMs?: number; timeoutMs?: number },
  compute: () => Promise<string>,
): Promise<string> {
  const client = o.client as unknown as { sendCommand(args: string[]): Promise<unknown> };
  const get = async () => (await client.sendCommand(['GET', o.key])) as string | null;
  const cached = await get();
  if (cached !== null) return cached;
  const waitUntil = monotonicNow() + (o.timeoutMs ?? 30_000);
  for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
    const lock = await acquireRedisLock({
      client: o.client,
      name: `${o.key}:compute-lock`,
      ttlMs: o.lockTtlMs ?? 30_000,
      timeoutMs: 0,
      audit: false,
    }).catch((err: unknown) => {
      if (err instanceof LockTimeoutError) return null;
      throw err;
    });
    if (lock) {
      try {
        const again = await get(); // computed by the holder we waited for
        if (again !== null) return again;
        const value = await compute();
        await client.sendCommand(['SET', o.key, value, 'PX', String(o.cacheTtlMs)]);
        return value;
      } finally {
        await lock.release();
      }
    }
    await sleep(pause);
    const value = await get();
    if (value !== null) return value;
    if (monotonicNow() > waitUntil) return compute();
  }
}

function storeOf(o: RedisAcquireOptions): RedisLockStore {
  return new RedisLockStore({ client: o.client as RedisClientLike, auditStream: o.audit ? o.audit.stream : undefined });
}

function settingsOf(o: RedisAcquireOptions) {
  if (!o || typeof o !== 'object') throw new LockOptionsError('Expected an options object');
  if (!o.client)
    throw new LockOptionsError('Expected `client` to be a connected node-redis client or a MemoryRedisLocks');
  validateLockName(o.name);
  const ttlMs = o.ttlMs ?? 30_000;
  if (!Number.isInteger(ttlMs) || ttlMs < 100 || ttlMs > MAX_TIMER_MS)
    throw new LockOptionsError(`Expected \`ttlMs\` to be an integer from 100 to ${MAX_TIMER_MS}, got ${ttlMs}`);
  const refreshIntervalMs = o.refreshIntervalMs ?? Math.floor(ttlMs / 8);
  if (!Number.isInteger(refreshIntervalMs) || refreshIntervalMs < 1 || refreshIntervalMs > ttlMs / 3)
    throw new LockOptionsError(
      `Expected \`refreshIntervalMs\` to be an integer from 1 to ttlMs / 3 (${Math.floor(ttlMs / 3)}), got ${refreshIntervalMs}`,
    );
  return { name: o.name, identity: o.identity ?? defaultIdentity(), purpose: o.purpose, ttlMs, refreshIntervalMs };
}
