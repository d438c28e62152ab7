// Debian's ZooKeeper for tests (from its jar, on a free loopback port, stopped by the test that started it), and the
// real recipe writers (lib/demo/zk-writers): kazoo with Debian's /usr/bin/python3, Curator from Debian's jars. A
// machine without them fails with the command that installs them.
import { spawnSync } from 'node:child_process';
import { curatorClasspath, kazooMissing, startCurator, startKazoo, type RecipeDriver } from '@/lib/demo/zk-writers';
import { INSTALL_ZOOKEEPER, startZooKeeperServer, type ZooKeeperServer } from '@/lib/demo/zookeeper-server';
import { connectZooKeeper, type ZkConn } from '@/lib/lock/stores/zookeeper/conn';
import { parseZooKeeperSource } from '@/lib/lock/stores/zookeeper/source';
import { ZooKeeperLockStore } from '@/lib/lock/stores/zookeeper/store';
import { freePort } from './browser';

export type { RecipeDriver } from '@/lib/demo/zk-writers';

export async function startZooKeeper(o: { tickMs?: number; words?: string } = {}): Promise<ZooKeeperServer> {
  if (spawnSync('java', ['-version']).status !== 0)
    throw new Error(`These tests need a JDK and ZooKeeper: ${INSTALL_ZOOKEEPER} openjdk-17-jdk-headless`);
  return startZooKeeperServer(await freePort(), o);
}

export function kazoo(hosts: string): RecipeDriver {
  const missing = kazooMissing();
  if (missing) throw new Error(`These tests need ${missing}`);
  return startKazoo(hosts);
}

export function curator(hosts: string): RecipeDriver {
  const cp = curatorClasspath();
  if (!cp)
    throw new Error(
      'These tests need Curator and a JDK: apt-get install -y libcurator-recipes-java openjdk-17-jdk-headless',
    );
  return startCurator(hosts, cp);
}

/** A plain client on the source, for the tests' own reads and writes. */
export function zkClient(hosts: string, path = '/'): Promise<ZkConn> {
  return connectZooKeeper(parseZooKeeperSource(`zookeeper://${hosts}${path}`));
}

/** A server with both recipe writers, an admin connection and a store rooted at `root`: what most ZooKeeper tests need. */
export interface ZkRig {
  server: ZooKeeperServer;
  k: RecipeDriver;
  c: RecipeDriver;
  admin: ZkConn;
  store: ZooKeeperLockStore;
  stop(): Promise<void>;
}

export async function startZkRig(root: string, o: { sessions?: boolean } = {}): Promise<ZkRig> {
  const server = await startZooKeeper();
  const k = kazoo(server.hosts);
  const c = curator(server.hosts);
  const admin = await zkClient(server.hosts);
  const conn = await zkClient(server.hosts, root);
  const store = new ZooKeeperLockStore({ conn, ...(o.sessions === false ? { sessions: false } : {}) });
  return {
    server,
    k,
    c,
    admin,
    store,
    async stop() {
      await store.close();
      admin.client.close();
      await Promise.all([k.stop(), c.stop()]);
      await server.stop();
    },
  };
}

/** Polls `check` every 30 ms for up to 3 s; its last answer. */
export async function until(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 30));
  return check();
}
