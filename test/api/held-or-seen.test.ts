// "Held for" only where the store records an acquisition: a Redis SET … PX lock records none, so the console's row
// says "seen" (its first sight, as the CLI says "not recorded") while a Lockboard Redis lock, which records its
// acquisition, says "held"; the row, the lock page and the CLI's rule agree for each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockInfo } from '@/lib/lock';
import { acquireRedisLock } from '@/lib/lock/stores/redis';
import { heldOrSeen, recordsAcquireTime } from '@/lib/text/format';
import { call, routesFor, type Routes } from '../helpers/routes';
import { startRedis, type TestRedis } from '../helpers/redis';

const OPERATOR = 'ops@example.com';
let r: TestRedis;
let routes: Routes;
let bucket: string;
let stopHolder: (() => unknown) | undefined;

beforeAll(async () => {
  r = await startRedis();
  await r.client.sendCommand(['SET', 'locks:report', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'PX', '60000']);
  const held = await acquireRedisLock({ client: r.client, name: 'locks:deploy', identity: 'runner-1', ttlMs: 60_000 });
  stopHolder = () => held.release();
  bucket = `redis://127.0.0.1:${r.port}/0`;
  routes = await routesFor(`${bucket}?match=locks:*`, OPERATOR);
}, 30_000);
afterAll(async () => {
  await stopHolder?.();
  await r?.stop();
});

const page = async (name: string) =>
  (
    await call(
      routes.lock.GET,
      `/api/locks/${name}?bucket=${encodeURIComponent(bucket)}`,
      { as: OPERATOR },
      { name: [name] },
    )
  ).json as unknown as LockInfo;

describe('held for, or seen for', () => {
  it('says "held" only for a lock whose store records its acquisition, on the row and the page alike', async () => {
    const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    const rows = res.json.locks as LockInfo[];
    const row = (name: string) => rows.find((l) => l.name === name)!;
    expect(row('locks:report').seenOnly).toBe(true);
    expect(row('locks:deploy').seenOnly).toBeUndefined();
    for (const [name, recorded] of [
      ['locks:report', false],
      ['locks:deploy', true],
    ] as const) {
      expect(recordsAcquireTime(row(name)), `row of ${name}`).toBe(recorded);
      expect(recordsAcquireTime(await page(name)), `page of ${name}`).toBe(recorded);
      expect(heldOrSeen(row(name), 8_000)).toBe(`${recorded ? 'held' : 'seen'} 8s`);
    }
  });
});
