// A source that lists one member of a real three-member ZooKeeper ensemble (stores.md "The reach of evidence"): a
// kazoo holder connected to another member is in no `cons` the source reads, and that proves nothing: the verdict is
// unknown, naming the members not read (from the members' own `conf`). The same lock read through a source listing
// every member finds its session connected: alive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZkConn } from '@/lib/lock/stores/zookeeper/conn';
import { ZooKeeperLockStore } from '@/lib/lock/stores/zookeeper/store';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { verdictOf, type LockVerdict } from '@/lib/lock/verdict/verdict';
import { startKazooHolder, type KazooHolder } from '../helpers/kazoo-holder';
import { delay } from '../helpers/requests';
import { startZkEnsemble, type ZkEnsemble } from '../helpers/zk-ensemble';
import { zkClient } from '../helpers/zookeeper';

let ensemble: ZkEnsemble;
let holder: KazooHolder;
const conns: ZkConn[] = [];
beforeAll(async () => {
  ensemble = await startZkEnsemble(3);
  holder = await startKazooHolder(ensemble.members[1]!, '/app/jobs/elsewhere', 'worker-2', 10);
}, 120_000);
afterAll(async () => {
  await holder?.stop();
  for (const c of conns) c.client.close();
  await ensemble?.stop();
});

/** The lock's verdict through a store whose source lists `hosts`, once the node is visible there. */
async function verdictThrough(hosts: string): Promise<LockVerdict> {
  const conn = await zkClient(hosts, '/app');
  conns.push(conn);
  const store = judgedStore(new ZooKeeperLockStore({ conn }));
  for (let i = 0; i < 50; i++, await delay(100)) {
    const view = await store.inspect('app/jobs/elsewhere');
    if (view) return verdictOf(view)!;
  }
  throw new Error(`app/jobs/elsewhere is not visible through ${hosts}`);
}

describe('a source listing fewer members than the ensemble', () => {
  it('says unknown for a session in no cons it reads, naming the members it does not read', async () => {
    const [one] = ensemble.members;
    const v = await verdictThrough(one!);
    expect(v.verdict).toBe('unknown');
    expect(v.sentence).toBe(
      `Unknown: session ${holder.held.sid} is not in the cons of the members read (${one}), but the ensemble also has server.2 (127.0.0.1), server.3 (127.0.0.1), not read: it may be connected there; listing every member in the source would settle it.`,
    );
  }, 60_000);

  it('finds the session connected to another member when the source lists them all', async () => {
    const v = await verdictThrough(ensemble.members.join(','));
    expect(v.verdict).toBe('alive');
    expect(v.sentence).toMatch(
      new RegExp(`^Alive: session ${holder.held.sid} \\(client 127\\.0\\.0\\.1:\\d+\\) is connected`),
    );
  }, 60_000);
});
