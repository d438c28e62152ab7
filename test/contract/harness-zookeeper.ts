// The contract on ZooKeeper: Debian's ZooKeeper from its jar, locks held by real kazoo contenders (Debian's python),
// a znode of plain data beside them, and a kazoo queue (a holder and two waiters) for rule 7.
import { kazoo, startZooKeeper, zkClient } from '../helpers/zookeeper';
import type { Harness, QueueHarness } from './harnesses';

export async function zookeeperHarness(): Promise<Harness> {
  const server = await startZooKeeper();
  const k = kazoo(server.hosts);
  const admin = await zkClient(server.hosts);
  // names are znode paths without the leading slash (the kazoo writers are given the paths)
  const lock = 'contract/locks/nightly';
  const q = 'contract/queue/deploy';
  const queued = ['q-holder', 'q-first', 'q-second'];
  const queue: QueueHarness = {
    name: q,
    order: queued.slice(1),
    async start() {
      for (const who of queued) await k.start(who, 'lock', `/${q}`, who);
    },
    async holder() {
      // a force-released holder is not told (kazoo's is_acquired stays true): the waiters are asked first
      for (let i = 0; i < 40; i++) {
        for (const who of queued.slice(1)) if (await k.held(who)) return who;
        if (i >= 10 && (await k.held(queued[0]!))) return queued[0]!;
        await new Promise((r) => setTimeout(r, 25));
      }
      return '';
    },
    async stop() {
      for (const who of queued) await k.close(who).catch(() => undefined);
    },
  };
  return {
    kind: 'zookeeper',
    source: `zookeeper://${server.hosts}/contract`,
    env: {},
    lock,
    notALock: 'contract/config/app',
    async hold() {
      await k.start('alice', 'lock', `/${lock}`, 'alice@laptop');
      await admin.mkdirp('/contract/config');
      await admin.create('/contract/config/app', Buffer.from('{"replicas":3}'), admin.zk.CreateMode.PERSISTENT);
    },
    async successor() {
      await k.release('alice');
      await k.start('bob', 'lock', `/${lock}`, 'bob@ci');
    },
    queue,
    async stop() {
      admin.client.close();
      await k.stop();
      await server.stop();
    },
  };
}
