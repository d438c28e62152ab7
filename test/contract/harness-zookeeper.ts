// The contract on ZooKeeper: Debian's ZooKeeper from its jar, a znode of plain data beside the locks, and a queue of
// Lockboard's holder with two real kazoo waiters (Debian's python) in the one kazoo Lock layout for rule 7. The locks
// the contract force-releases without further words are Lockboard's own: its holder watches its node and stops. A
// Curator or kazoo holder is never told (it keeps believing it holds), so its release needs --accept-two-leaders,
// which test/zookeeper/not-told.test.ts covers.
import { acquireZooKeeperLock } from '@/lib/lock/stores/zookeeper/acquire';
import type { ZooKeeperLock } from '@/lib/lock/stores/zookeeper/lock';
import { kazoo, startZooKeeper, zkClient } from '../helpers/zookeeper';
import type { Harness, QueueHarness } from './harnesses';

export async function zookeeperHarness(): Promise<Harness> {
  const server = await startZooKeeper();
  const k = kazoo(server.hosts);
  const admin = await zkClient(server.hosts);
  const holders = await zkClient(server.hosts); // the session of Lockboard's holders
  const held: ZooKeeperLock[] = [];
  const take = async (path: string, identity: string) => {
    const lock = await acquireZooKeeperLock({ conn: holders, name: `/${path}`, identity, timeoutMs: 5_000 });
    held.push(lock);
    return lock;
  };
  // names are znode paths without the leading slash
  const lock = 'contract/locks/nightly';
  const q = 'contract/queue/deploy';
  const waiters = ['q-first', 'q-second'];
  let queueHolder: ZooKeeperLock | undefined;
  const queue: QueueHarness = {
    name: q,
    order: waiters,
    async start() {
      queueHolder = await take(q, 'q-holder');
      for (const who of waiters) await k.start(who, 'lock', `/${q}`, who);
    },
    async holder() {
      for (let i = 0; i < 40; i++) {
        for (const who of waiters) if (await k.held(who)) return who;
        await new Promise((r) => setTimeout(r, 25));
      }
      return queueHolder?.signal.aborted === false ? 'q-holder' : '';
    },
    async stop() {
      for (const who of waiters) await k.close(who).catch(() => undefined);
    },
  };
  let alice: ZooKeeperLock | undefined;
  return {
    kind: 'zookeeper',
    source: `zookeeper://${server.hosts}/contract`,
    env: {},
    lock,
    notALock: 'contract/config/app',
    async hold() {
      alice = await take(lock, 'alice@laptop');
      await admin.mkdirp('/contract/config');
      await admin.create('/contract/config/app', Buffer.from('{"replicas":3}'), admin.zk.CreateMode.PERSISTENT);
    },
    async successor() {
      await alice!.release();
      await take(lock, 'bob@ci');
    },
    queue,
    async stop() {
      await Promise.all(held.map((l) => l.release().catch(() => undefined)));
      holders.client.close();
      admin.client.close();
      await k.stop();
      await server.stop();
    },
  };
}
