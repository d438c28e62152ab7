// The demo's ZooKeeper: started from Debian's jar with real kazoo and Curator holders and waiters, listed by the store,
// stopped with nothing left running.
import { afterAll, expect, it } from 'vitest';
import { startDemoZooKeeper, type DemoZooKeeper } from '@/lib/demo/zookeeper';
import { isServing } from '@/lib/demo/zookeeper-server';
import { Stopper } from '@/lib/demo/stopper';
import { openSource, parseSource } from '@/lib/lock/stores';
import { freePort } from '../helpers/browser';

let zk: DemoZooKeeper | null = null;
const stop = new Stopper();
afterAll(async () => {
  stop.stop();
  await zk?.stop();
});

it('starts ZooKeeper with recipes that have holders and waiters, and stops it', async () => {
  const port = await freePort();
  zk = await startDemoZooKeeper(port, stop);
  expect(zk, 'ZooKeeper is installed (apt-get install -y zookeeper)').not.toBeNull();
  const store = await openSource(parseSource(zk!.url), { env: {}, role: 'cli' });
  let locks: Awaited<ReturnType<typeof store.list>>['locks'] = [];
  for (let i = 0; i < 50 && !locks.some((l) => l.format === 'lockboard'); i++) {
    locks = (await store.list()).locks;
    await new Promise((r) => setTimeout(r, 100));
  }
  await store.close();
  const formats = new Map(locks.map((l) => [l.name, l]));
  expect(formats.get('locks/deploy/prod')?.waiters).toHaveLength(2);
  expect(formats.get('locks/etl/nightly')?.waiters?.map((w) => w.identity)).toEqual(['etl-b@batch-1', 'etl-c@batch-1']);
  expect(formats.get('services/kafka-tools/latch')?.terms.twoLeaders).toBeTruthy();
  expect(formats.get('locks/pool/gpu')?.format).toBe('kazoo-semaphore');
  expect(locks.some((l) => l.name.startsWith('config'))).toBe(false);
  stop.stop();
  await zk!.stop();
  zk = null;
  expect(await isServing(`127.0.0.1:${port}`)).toBe(false);
}, 60_000);
