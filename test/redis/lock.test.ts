// Lockboard's lock on Redis, against a real redis-server and against the in-process MemoryRedisLocks with the same
// API: mutual exclusion with fencing tokens that only grow, waiting and timeouts naming the holder, loss pushed through
// the signal, the dog-pile guard, the audit stream; and listing and clearing on a three-master Redis Cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockLostError, LockTimeoutError } from '@/lib/lock';
import {
  acquireRedisLock,
  computeOnce,
  MemoryRedisLocks,
  RedisLockStore,
  withRedisLock,
  type RedisClientLike,
} from '@/lib/lock/stores/redis';
import { delay } from '../helpers/requests';
import { startRedis, startRedisCluster, type TestRedis } from '../helpers/redis';

let r: TestRedis;
beforeAll(async () => {
  r = await startRedis();
}, 30_000);
afterAll(() => r?.stop());

const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

for (const kind of ['redis-server', 'MemoryRedisLocks'] as const) {
  describe(`Lockboard's Redis lock on ${kind}`, () => {
    const client = (): RedisClientLike | MemoryRedisLocks => (kind === 'redis-server' ? r.client : memory);
    const memory = new MemoryRedisLocks();

    it('serialises holders, with fencing tokens that only grow', async () => {
      const tokens: bigint[] = [];
      let inside = 0;
      await Promise.all(
        [1, 2, 3, 4].map((i) =>
          withRedisLock(
            { client: client(), name: `l:${kind}:serial`, identity: `w-${i}`, ttlMs: 2_000 },
            async (lock) => {
              inside++;
              expect(inside).toBe(1);
              tokens.push(BigInt(lock.fencingToken));
              await delay(50);
              inside--;
            },
          ),
        ),
      );
      expect(tokens).toHaveLength(4);
      expect([...tokens].sort((a, b) => (a < b ? -1 : 1))).toEqual(tokens);
    });

    it('times out with --no-wait semantics (timeoutMs 0) and refreshes past its TTL while held', async () => {
      const name = `l:${kind}:held`;
      const lock = await acquireRedisLock({
        client: client(),
        name,
        identity: 'holder-1',
        ttlMs: 400,
        refreshIntervalMs: 100,
      });
      await delay(900); // longer than the TTL: refreshes keep it
      const err = await acquireRedisLock({ client: client(), name, timeoutMs: 0 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockTimeoutError);
      if (kind === 'redis-server') expect((err as LockTimeoutError).holder?.identity).toBe('holder-1');
      expect(lock.isHealthy).toBe(true);
      expect(await lock.release()).toBe('released');
      const next = await acquireRedisLock({ client: client(), name, timeoutMs: 0 });
      expect(BigInt(next.fencingToken)).toBeGreaterThan(BigInt(lock.fencingToken));
      await next.release();
    });

    it('pushes loss through the signal when the key is cleared', async () => {
      const name = `l:${kind}:lost`;
      const lock = await acquireRedisLock({ client: client(), name, ttlMs: 2_000, refreshIntervalMs: 100 });
      if (kind === 'redis-server') await r.client.sendCommand(['DEL', name]);
      else memory.delete(name);
      await aborted(lock.signal);
      expect((lock.signal.reason as LockLostError).reason).toBe('released-by-operator');
      expect(await lock.release()).toBe('already-lost');
    });
  });
}

describe('on redis-server only', () => {
  it('is shown by the store as a Lockboard lock, cleared by force-release, and the holder aborts', async () => {
    const lock = await acquireRedisLock({
      client: r.client,
      name: 'lb:deploy',
      identity: 'deployer-3',
      purpose: 'deploy',
      ttlMs: 5_000,
      refreshIntervalMs: 100,
    });
    const store = new RedisLockStore({ client: r.client, match: 'lb:*' });
    const [view] = (await store.list()).locks;
    expect([view!.format, view!.identity, view!.generation, view!.health]).toEqual([
      'lockboard',
      'deployer-3',
      lock.fencingToken,
      'healthy',
    ]);
    expect(view!.details).toContainEqual(['Purpose', 'deploy']);
    const result = await store.forceRelease({ name: 'lb:deploy', version: view!.version, reason: 'x', operator: 'op' });
    expect(result.outcome).toBe('released'); // a refresh (PEXPIRE) keeps the value, so the version still matches
    await aborted(lock.signal);
    expect((lock.signal.reason as LockLostError).reason).toBe('released-by-operator');
  });

  it('records acquired and released (with the error) in the audit stream', async () => {
    const from = new Date(Date.now() - 1000);
    await expect(
      withRedisLock({ client: r.client, name: 'au:job', audit: { stream: 'au:stream' } }, async () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    await delay(50);
    const store = new RedisLockStore({ client: r.client, auditStream: 'au:stream' });
    const events = await store.readAudit(from, new Date(Date.now() + 1000), 'au:job');
    expect(events.map((e) => [e.event, e.outcome ?? '', e.error ?? ''])).toEqual([
      ['acquired', '', ''],
      ['released', 'error', 'disk full'],
    ]);
  });

  it('computes an expensive value once while concurrent callers wait for it (the dog-pile case)', async () => {
    let computed = 0;
    const compute = async () => {
      computed++;
      await delay(200);
      return 'report-v1';
    };
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        computeOnce({ client: r.client, key: 'dp:report', cacheTtlMs: 10_000 }, compute),
      ),
    );
    expect(new Set(results)).toEqual(new Set(['report-v1']));
    expect(computed).toBe(1);
    expect(await computeOnce({ client: r.client, key: 'dp:report', cacheTtlMs: 10_000 }, compute)).toBe('report-v1');
    expect(computed).toBe(1);
  });
});

describe('Redis Cluster (three masters)', () => {
  it('lists locks from every master, and clears one with its compare-and-delete on its own master', async () => {
    const c = await startRedisCluster(3);
    try {
      const names = Array.from({ length: 30 }, (_, i) => `cl:job-${i}`);
      for (const n of names)
        await c.cluster.sendCommand(n, false, [
          'SET',
          n,
          Math.random().toString(16).slice(2).padEnd(32, '0').slice(0, 32),
          'PX',
          '30000',
        ]);
      const held = await acquireRedisLock({
        client: c.cluster,
        name: 'cl:lockboard',
        identity: 'cluster-holder',
        ttlMs: 5_000,
      });
      const store = new RedisLockStore({ client: c.cluster, match: 'cl:*' });
      const { locks } = await store.list();
      expect(locks).toHaveLength(31);
      // the keys really are spread over the masters
      const perMaster = await Promise.all(
        c.cluster.masters.map(async (m) => Number(await (await c.cluster.nodeClient(m)).sendCommand(['DBSIZE']))),
      );
      expect(perMaster.filter((n) => n > 0).length).toBeGreaterThan(1);
      const target = locks.find((l) => l.name === 'cl:job-7')!;
      expect(
        (await store.forceRelease({ name: target.name, version: target.version, reason: 'x', operator: 'op' })).outcome,
      ).toBe('released');
      expect(await c.cluster.sendCommand('cl:job-7', true, ['EXISTS', 'cl:job-7'])).toBe(0);
      expect(await held.release()).toBe('released');
    } finally {
      await c.stop();
    }
  }, 60_000);
});
