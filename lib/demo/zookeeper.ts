// The demo's ZooKeeper, when Debian's zookeeper is installed: a server of its own (from its jar, on loopback) with
// Lockboard's own lock contended by three workers (a holder and two waiters at any time), real kazoo recipes (a Lock
// with two waiters, a Semaphore, an Election) and real Curator ones (a LeaderLatch, an InterProcessMutex) where those
// are installed, and a configuration znode that is not a lock.
import { join } from 'node:path';
import { acquireZooKeeperLock } from '../lock/stores/zookeeper/acquire';
import { connectZooKeeper, type ZkConn } from '../lock/stores/zookeeper/conn';
import { parseZooKeeperSource } from '../lock/stores/zookeeper/source';
import { background, firstLine } from './background';
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

/** Starts the recipes' drivers into `drivers` (so those started before a failure are still stopped). */
async function recipes(hosts: string, drivers: RecipeDriver[]): Promise<void> {
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
}

/** Lockboard's own lock contended by three workers (a holder and two waiters at any time), each its own session. */
export function zookeeperHolders(url: string, stop: Stopper, conns: ZkConn[] = []): Promise<void>[] {
  const source = parseZooKeeperSource(url);
  return [0, 1, 2].map((i) => {
    let conn: ZkConn | undefined;
    return background(`ZooKeeper contender deployer-${i}`, stop, async (signal) => {
      if (!conn) {
        conn = await connectZooKeeper(source, { sessionTimeoutMs: 10_000 });
        conns.push(conn);
      }
      const lock = await acquireZooKeeperLock({
        conn,
        name: '/locks/deploy/prod',
        identity: `deployer-${i}`,
        purpose: 'deploy',
        signal,
      }).catch(() => null);
      await sleep(4_000 + Math.random() * 4_000, signal);
      await lock?.release().catch(() => undefined);
      await sleep(500, signal);
    });
  });
}

/**
 * The last run's znodes but Lockboard's trail (`.lockboard/audit` and what leads to it), deepest first: its locks
 * start afresh (an old session's ephemeral nodes too, which would hold the new contenders until it expires).
 */
async function clearAllButTrail(conn: ZkConn, path = '/'): Promise<boolean> {
  let kept = path.endsWith('/.lockboard/audit') || path === '/zookeeper';
  if (kept) return true;
  for (const child of await conn.children(path).catch(() => [] as string[]))
    if (await clearAllButTrail(conn, `${path === '/' ? '' : path}/${child}`)) kept = true;
  if (!kept && path !== '/') await conn.remove(path, -1).catch(() => undefined);
  return kept;
}

/** Starts ZooKeeper on `port` (its data kept under `dataDir` where given), or returns null (saying how to install it). */
export async function startDemoZooKeeper(port: number, stop: Stopper, dataDir?: string): Promise<DemoZooKeeper | null> {
  if (!zookeeperClasspath()) {
    console.log(`ZooKeeper locks: ZooKeeper is not installed, so the demo shows none (${INSTALL_ZOOKEEPER}).`);
    return null;
  }
  const server = await startZooKeeperServer(port, dataDir ? { dataDir: join(dataDir, 'zookeeper') } : {});
  const url = `zookeeper://${server.hosts}/`;
  const admin = await connectZooKeeper(parseZooKeeperSource(url));
  const conns: ZkConn[] = [admin];
  await clearAllButTrail(admin);
  await admin.mkdirp('/config/payments');
  await admin
    .create('/config/payments/limits', Buffer.from('{"daily":10000}'), admin.zk.CreateMode.PERSISTENT)
    .catch(() => undefined);
  const drivers: RecipeDriver[] = [];
  await recipes(server.hosts, drivers).catch((err: unknown) => {
    console.log(`ZooKeeper: the kazoo/Curator recipes are off: ${firstLine(err)}`);
  });
  return {
    url,
    loops: zookeeperHolders(url, stop, conns),
    async stop() {
      for (const c of conns) c.client.close();
      // together: a recipe driver whose server is gone takes its whole grace (3 s) to exit
      await Promise.allSettled([...drivers.map((d) => d.stop()), server.stop()]);
    },
    kill: () => server.kill(),
  };
}
