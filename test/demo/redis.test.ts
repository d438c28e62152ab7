// The demo's Redis shows the best case: its redis-server starts with keyspace notifications covering locks, so the
// console's Redis view is pushed by the store's change feed instead of SCANned on a timer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createClient } from 'redis';
import { startDemoRedis, type DemoRedis } from '@/lib/demo/redis';
import { Stopper } from '@/lib/demo/stopper';
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { freePort } from '../helpers/browser';
import { delay } from '../helpers/requests';

const stopper = new Stopper();
let demo: DemoRedis | null;
beforeAll(async () => {
  if (spawnSync('redis-server', ['--version']).status !== 0)
    throw new Error('This test needs redis-server: install it with "apt-get install -y redis-server".');
  demo = await startDemoRedis(await freePort(), stopper);
}, 30_000);
afterAll(async () => {
  stopper.stop();
  await Promise.allSettled(demo?.loops ?? []);
  await demo?.stop();
});

describe("the demo's Redis", () => {
  it('pushes a lock change through keyspace notifications', async () => {
    const c = createClient({ url: demo!.url });
    c.on('error', () => {});
    await c.connect();
    try {
      const flags = (await c.configGet('notify-keyspace-events'))['notify-keyspace-events'];
      expect(flags).toMatch(/K/);
      const store = new RedisLockStore({ client: c, match: '*', source: demo!.url, db: 0 });
      const names: string[] = [];
      const feed = await store.changes({ changed: (n) => names.push(...n), missed: () => {} });
      expect(feed?.description).toMatch(/keyspace notifications/);
      await c.set('locks:pushed', 'a1b2c3', { PX: 10_000 });
      for (let i = 0; i < 100 && !names.includes('locks:pushed'); i++) await delay(20);
      expect(names).toContain('locks:pushed');
      await feed!.stop();
    } finally {
      await c.quit();
    }
  }, 30_000);
});
