// ZooKeeper: listing 300 locks (a holder and two waiters each, kazoo's layout) among 1 000 plain znodes on Debian's
// real ZooKeeper, against the walk a znode-tree console does (getChildren + getData of every znode); the requests
// of a force-release; and the handover time from a release to the first waiter holding.
import { randomUUID } from 'node:crypto';
import { acquireZooKeeperLock } from '@/lib/lock/stores/zookeeper/acquire';
import { ZooKeeperLockStore } from '@/lib/lock/stores/zookeeper';
import type { ZkConn } from '@/lib/lock/stores/zookeeper/conn';
import { startZooKeeper, zkClient } from '../helpers/zookeeper';
import { printTable, quantile, round, writeJson } from './report';

const LOCKS = 300;
const PLAIN = 1_000;
const HANDOVERS = 20;

async function seed(conn: ZkConn) {
  const { EPHEMERAL_SEQUENTIAL, PERSISTENT } = conn.zk.CreateMode;
  const jobs = Array.from({ length: LOCKS }, (_, i) => `/bench/locks/job-${i}`);
  await Promise.all(jobs.map((j) => conn.mkdirp(j)));
  for (const who of ['holder', 'waiter-1', 'waiter-2'])
    await Promise.all(
      jobs.map((j) =>
        conn.create(`${j}/${randomUUID().replace(/-/g, '')}__lock__`, Buffer.from(who), EPHEMERAL_SEQUENTIAL),
      ),
    );
  await conn.mkdirp('/bench/config');
  await Promise.all(
    Array.from({ length: PLAIN }, (_, i) =>
      conn.create(`/bench/config/key-${i}`, Buffer.from(`{"value":${i}}`), PERSISTENT),
    ),
  );
}

/** What a znode-tree console does: every znode's children and data. */
async function treeWalk(conn: ZkConn, path: string): Promise<number> {
  const [names] = await Promise.all([conn.children(path), conn.read(path)]);
  const counts = await Promise.all(names.map((n) => treeWalk(conn, `${path === '/' ? '' : path}/${n}`)));
  return 1 + counts.reduce((a, b) => a + b, 0);
}

async function best<T>(runs: number, f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  let ms = Infinity;
  let value!: T;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    value = await f();
    ms = Math.min(ms, performance.now() - t);
  }
  return { ms, value };
}

export async function benchZooKeeper() {
  const server = await startZooKeeper();
  const seeder = await zkClient(server.hosts);
  const conn = await zkClient(server.hosts, '/bench');
  await seed(seeder);
  const store = new ZooKeeperLockStore({ conn });
  conn.requests = 0;
  const base = await best(5, () => treeWalk(conn, '/bench'));
  const baseRequests = conn.requests / 5;
  conn.requests = 0;
  const listed = await best(5, () => store.list());
  const listRequests = conn.requests / 5;
  const rows = [
    {
      listing: 'znode tree walk (getChildren + getData each)',
      znodes: base.value,
      locks: '-',
      requests: baseRequests,
      ms: round(base.ms),
      ratio: 1,
    },
    {
      listing: 'ZooKeeperLockStore.list (+ one cons per server)',
      znodes: base.value,
      locks: listed.value.locks.length,
      requests: listRequests,
      ms: round(listed.ms),
      ratio: round(listed.ms / base.ms, 2),
    },
  ];
  printTable(`Listing ${LOCKS} locks (3 nodes each) among ${PLAIN} plain znodes (best of 5)`, rows);

  const view = (await store.inspect('/bench/locks/job-0'))!;
  conn.requests = 0;
  // kazoo's layout: its holder is not told, so the release carries the acknowledgement (--accept-two-leaders)
  const r = await store.forceRelease({
    name: view.name,
    version: view.version,
    reason: 'bench',
    operator: 'bench',
    acceptTwoLeaders: true,
  });
  const ops = [
    {
      operation: `force-release (${r.outcome})`,
      requests: conn.requests,
      detail:
        'read: getChildren + 2 exists + getData per node (3 here); audit create; multi(check, delete); audit create; the first event under a source also creates .lockboard/audit (+2)',
    },
  ];
  printTable('ZooKeeper requests per force-release', ops);

  // handover: from a release (the holder's own, or a force-release) to the first waiter holding
  const own: number[] = [];
  const forced: number[] = [];
  const a = await zkClient(server.hosts);
  const b = await zkClient(server.hosts);
  for (let i = 0; i < HANDOVERS; i++) {
    const name = `/bench/handover/h-${i}`;
    const held = await acquireZooKeeperLock({ conn: a, name });
    const waiting = acquireZooKeeperLock({ conn: b, name });
    while ((await conn.children(name)).length < 2) await new Promise((res) => setTimeout(res, 5));
    const t = performance.now();
    if (i % 2 === 0) await held.release();
    else {
      const v = (await store.inspect(name))!;
      await store.forceRelease({ name, version: v.version, reason: 'bench', operator: 'bench' });
    }
    const next = await waiting;
    (i % 2 === 0 ? own : forced).push(performance.now() - t);
    await next.release();
  }
  const handover = [
    { release: 'holder’s own release', p50: round(quantile(own, 0.5)), p95: round(quantile(own, 0.95)), n: own.length },
    {
      release: 'force-release',
      p50: round(quantile(forced, 0.5)),
      p95: round(quantile(forced, 0.95)),
      n: forced.length,
    },
  ];
  printTable('Handover: release to the first waiter holding (ms)', handover);
  for (const c of [a, b, seeder]) c.client.close();
  await store.close();
  await server.stop();
  writeJson('zookeeper', { locks: LOCKS, plain: PLAIN, rows, ops, handover });
  return { rows, ops, handover };
}
