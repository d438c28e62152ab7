// Lockboard's own lock on DynamoDB (dynalite): a conditional create, refreshes conditioned on the record version,
// fencing tokens from an atomic counter, a crashed holder taken over once stale in one conditional write, loss pushed
// through the signal, and the request counts per operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockLostError, LockTimeoutError } from '@/lib/lock';
import { acquireDynamoLock, DynamoLockStore, withDynamoLock } from '@/lib/lock/stores/dynamodb';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';

let d: TestDynamo;
const base = () => ({ client: d.client, table: 'jobs', audit: false as const });

beforeAll(async () => {
  d = await startDynamo();
  await d.table('jobs', 'key');
  await d.table('lockboard-audit', 'lock', 'id');
});
afterAll(async () => d?.stop());

describe('Lockboard’s DynamoDB lock', () => {
  it('serialises holders with fencing tokens that only grow, and waits with reads only', async () => {
    const first = await acquireDynamoLock({ ...base(), name: 'nightly', identity: 'a', ttlMs: 6000 });
    const waiting = acquireDynamoLock({ ...base(), name: 'nightly', identity: 'b', ttlMs: 6000, timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await first.release()).toBe('released');
    const second = await waiting;
    expect(BigInt(second.fencingToken)).toBeGreaterThan(BigInt(first.fencingToken));
    expect(await second.release()).toBe('released');
  });

  it('refreshes with a new record version (listed as healthy, refreshed when released at the old one)', async () => {
    const lock = await acquireDynamoLock({
      ...base(),
      name: 'refresh',
      identity: 'r',
      ttlMs: 6000,
      refreshIntervalMs: 200,
    });
    const store = new DynamoLockStore({ client: d.client, table: 'jobs' });
    const seen = (await store.inspect('refresh'))!;
    expect(seen).toMatchObject({
      format: 'lockboard',
      health: 'healthy',
      identity: 'r',
      generation: lock.fencingToken,
    });
    await new Promise((r) => setTimeout(r, 500));
    const stale = await store.forceRelease({ name: 'refresh', version: seen.version, reason: 'x', operator: 'o' });
    expect(stale.outcome).toBe('refreshed');
    expect(lock.isHealthy).toBe(true);
    expect(await lock.release()).toBe('released');
  });

  it('times out naming the holder, and takes over a crashed holder once stale with one conditional write', async () => {
    const crashed = await acquireDynamoLock({ ...base(), name: 'crash', identity: 'crashed', ttlMs: 5000 });
    (crashed as unknown as { stopForRelease(): Promise<boolean> }).stopForRelease(); // no more refreshes, no release
    const err = await acquireDynamoLock({
      ...base(),
      name: 'crash',
      identity: 'next',
      ttlMs: 5000,
      timeoutMs: 0,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as Error).message).toMatch(/crashed/);
    const next = await acquireDynamoLock({ ...base(), name: 'crash', identity: 'next', ttlMs: 5000, timeoutMs: 8000 });
    expect(BigInt(next.fencingToken)).toBeGreaterThan(BigInt(crashed.fencingToken));
    expect(await next.release()).toBe('released');
  }, 15_000);

  it('pushes a force-release through the signal: the holder aborts with released-by-operator', async () => {
    await withDynamoLock(
      { ...base(), name: 'forced', identity: 'h', ttlMs: 6000, refreshIntervalMs: 200 },
      async (lock) => {
        const store = new DynamoLockStore({ client: d.client, table: 'jobs' });
        const seen = (await store.inspect('forced'))!;
        expect(
          (await store.forceRelease({ name: 'forced', version: seen.version, reason: 'x', operator: 'o' })).outcome,
        ).toBe('released');
        await new Promise<void>((resolve) => lock.signal.addEventListener('abort', () => resolve()));
        expect(lock.signal.reason).toBeInstanceOf(LockLostError);
        expect((lock.signal.reason as LockLostError).reason).toBe('released-by-operator');
      },
    );
  });

  it('costs 3 requests to acquire uncontended (read, fence, conditional put), 1 per refresh and 1 to release', async () => {
    const counted = { ...base(), name: 'counted', identity: 'c', ttlMs: 60_000, refreshIntervalMs: 10_000 };
    const lock = await acquireDynamoLock(counted);
    const table = (lock as unknown as { table: { requests: number } }).table;
    expect(table.requests).toBe(4); // DescribeTable once, then GetItem, UpdateItem ADD, PutItem
    await lock.refresh();
    expect(table.requests).toBe(5);
    expect(await lock.release()).toBe('released');
    expect(table.requests).toBe(6);
  });
});
