// The demo's ZooKeeper, when Debian's zookeeper is installed: a server of its own (from its jar, on loopback) with
// Lockboard's own lock contended by three workers (a holder and two waiters at any time), real kazoo recipes (a Lock
// with two waiters, a Semaphore, an Election) and real Curator ones (a LeaderLatch, an InterProcessMutex) where those
// are installed, and a configuration znode that is not a lock.
import { acquireZooKeeperLock } from '../lock/stores/zookeeper/acquire';
import { connectZooKeeper, type ZkConn } from '../lock/stores/zookeeper/conn';
import { parseZooKeeperSource } from '../lock/stores/zookeeper/source';
import { sleep } from './sleep';
import type { Stopper } from './stopper';
import { curatorClasspath, kazooMissing, startCurator, startKazoo, type RecipeDriver } from './zk-writers';
import { INSTALL_ZOOKEEPER, startZooKeeperServer, zookeeperClasspath } from './zookeeper-server';

export interface DemoZooKeeper {
  url: string;
  loops: Promise<void>[];
  stop(): Promise<void>;
  kill(): void;
}

async function recipes(hosts: string): Promise<RecipeDriver[]> {
  const drivers: RecipeDriver[] = [];
  const missing = kazooMissing();
  if (missing) console.log(`ZooKeeper: ${missing}: the demo shows no kazoo recipes.`);
  else {
    const k = startKazoo(hosts);
    drivers.push(k);
    for (const who of ['etl-a', 'etl-b', 'etl-c']) await k.start(who, 'lock', '/locks/etl/nightly', `${who}@batch-1`);
    for (const who of ['sem-1', 'sem-2', 'sem-3']) await k.start(who, 'semaphore', '/locks/pool/gpu', who, '2');
    for (const who of ['api-1', 'api-2']) await k.start(who, 'election', '/services/api/leader', who);
  }
  const cp = curatorClasspath();
  if (!cp) console.log('ZooKeeper: Curator is not installed (apt-get install -y libcurator-recipes-java).');
  else {
    const c = startCurator(hosts, cp);
    drivers.push(c);
    for (const who of ['broker-1', 'broker-2']) await c.start(who, 'latch', '/services/kafka-tools/latch', who);
    for (const who of ['m-1', 'm-2', 'm-3']) await c.start(who, 'mutex', '/locks/hbase/compaction', who);
  }
  return drivers;
}

/** Starts ZooKeeper on `port` with holders and waiters, or returns null (saying how to install it). */
export async function startDemoZooKeeper(port: number, stop: Stopper): Promise<DemoZooKeeper | null> {
  if (!zookeeperClasspath()) {
    console.log(`ZooKeeper locks: ZooKeeper is not installed, so the demo shows none (${INSTALL_ZOOKEEPER}).`);
    return null;
  }
  const server = await startZooKeeperServer(port);
  const conns: ZkConn[] = [];
  const source = parseZooKeeperSource(`zookeeper://${server.hosts}/`);
  const admin = await connectZooKeeper(source);
  conns.push(admin);
  await admin.mkdirp('/config/payments');
  await admin
    .create('/config/payments/limits', Buffer.from('{"daily":10000}'), admin.zk.CreateMode.PERSISTENT)
    .catch(() => undefined);
  const drivers = await recipes(server.hosts).catch((err: unknown) => {
    console.log(`ZooKeeper: the kazoo/Curator recipes are off: ${(err as Error).message}`);
    return [] as RecipeDriver[];
  });
  const loops = [0, 1, 2].map(async (i) => {
    const signal = stop.signal();
    const conn = await connectZooKeeper(source, { sessionTimeoutMs: 10_000 });
    conns.push(conn);
    while (!signal.aborted) {
      const lock = await acquireZooKeeperLock({
        conn,
        name: '/locks/deploy/prod',
        identity: `deployer-${i}`,
        purpose: 'deploy',
        signal,
      }).catch(() => null);
      await sleep(4_000 + Math.random() * 4_000, signal);
      await lock?.release();
      await sleep(500, signal);
    }
  });
  return {
    url: `zookeeper://${server.hosts}/`,
    loops,
    async stop() {
      await Promise.allSettled(drivers.map((d) => d.stop()));
      for (const c of conns) c.client.close();
      await server.stop();
    },
    kill: () => server.kill(),
  };
}
