// The demo's best case (#33 item 5): how long a Redis lock change takes to reach the console, on the demo's Redis
// (keyspace notifications on: the store's change feed pushes it) and on a default redis-server (the demo before: no
// feed, so the console re-lists at the store's pace, watchIntervalMs). From the SET to the store naming the key.
import { startDemoRedis } from '@/lib/demo/redis';
import { Stopper } from '@/lib/demo/stopper';
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { redis as redisDefinition } from '@/lib/lock/stores/redis/definition';
import { freePort } from '../helpers/browser';
import { startRedis } from '../helpers/redis';
import { printTable, quantile, round, writeJson } from './report';

const SAMPLES = 20;
const hex = () => Math.random().toString(16).slice(2).padEnd(16, '0') + Math.random().toString(16).slice(2, 18);

export async function benchTruth() {
  const stopper = new Stopper();
  const demo = (await startDemoRedis(await freePort(), stopper))!;
  const plain = await startRedis();
  const { createClient } = await import('redis');
  const demoClient = createClient({ url: demo.url });
  await demoClient.connect();
  try {
    // pushed: the demo's Redis, through the store's feed
    const pushedStore = new RedisLockStore({ client: demoClient, match: 'bench:*', source: demo.url, db: 0 });
    let seen: (() => void) | undefined;
    const feed = await pushedStore.changes({ changed: () => seen?.(), missed: () => {} });
    if (!feed) throw new Error("the demo's Redis has no change feed: keyspace notifications are off");
    const pushed: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const arrived = new Promise<void>((resolve) => (seen = resolve));
      const started = performance.now();
      await demoClient.set(`bench:pushed-${i}`, hex(), { PX: 60_000 });
      await arrived;
      pushed.push(performance.now() - started);
    }
    await feed.stop();
    // polled: a default redis-server has no feed; the console lists every watchIntervalMs
    const polledStore = new RedisLockStore({
      client: plain.client,
      match: 'bench:*',
      source: `redis://127.0.0.1:${plain.port}/0`,
      db: 0,
    });
    const interval = redisDefinition.watchIntervalMs;
    const polled: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      // the change lands at a random moment of the console's listing cycle
      const cycleStart = performance.now();
      await new Promise((r) => setTimeout(r, Math.random() * interval));
      const started = performance.now();
      await plain.client.set(`bench:polled-${i}`, hex(), { PX: 60_000 });
      for (let tick = 1; ; tick++) {
        await new Promise((r) => setTimeout(r, Math.max(0, cycleStart + tick * interval - performance.now())));
        if ((await polledStore.list()).locks.some((l) => l.name === `bench:polled-${i}`)) break;
      }
      polled.push(performance.now() - started);
    }
    const row = (how: string, xs: number[]) => ({
      'Redis change reaches the console': how,
      samples: xs.length,
      'p50 ms': round(quantile(xs, 0.5)),
      'p95 ms': round(quantile(xs, 0.95)),
    });
    const rows = [
      row('demo Redis, keyspace notifications (pushed)', pushed),
      row(`default redis-server, listed every ${interval} ms (before)`, polled),
    ];
    printTable('Demo Redis: change to console', rows);
    writeJson('truth', { rows, pushed, polled });
  } finally {
    await demoClient.quit();
    stopper.stop();
    await demo.stop();
    await plain.stop();
  }
}
