// A ZooKeeper holder between two connections (facts-sound.md "A ZooKeeper session between connections"), on Debian's
// ZooKeeper with a real kazoo holder behind a TCP proxy: while the proxy drops its connection, its session is in no
// member's cons but stays valid on the server, so it is never judged gone and `release --if-gone` deletes nothing;
// kazoo then resumes the same session and its node is still there. The control: a SIGKILLed holder's session is gone
// once its timeout has passed since the first read that missed it (the store's clock moved, not slept: the server
// deletes the node itself within a tick of that), and the CLI's "Released …" line names the lock's whole address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperServer } from '@/lib/demo/zookeeper-server';
import { long, type ZkConn } from '@/lib/lock/stores/zookeeper/conn';
import { sessionLabel } from '@/lib/lock/stores/zookeeper/sessions';
import { ZooKeeperLockStore } from '@/lib/lock/stores/zookeeper/store';
import { judgedStore, type JudgedStore } from '@/lib/lock/verdict/judged-store';
import { verdictOf, type LockVerdict } from '@/lib/lock/verdict/verdict';
import { runCli } from '../helpers/cli';
import { startKazooHolder, type KazooHolder } from '../helpers/kazoo-holder';
import { delay } from '../helpers/requests';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { startZooKeeper, zkClient } from '../helpers/zookeeper';

let server: ZooKeeperServer;
let proxy: TcpProxy;
let admin: ZkConn;
let inner: ZooKeeperLockStore;
let store: JudgedStore;
const holders: KazooHolder[] = [];
beforeAll(async () => {
  server = await startZooKeeper({ words: 'srvr,ruok,cons,conf' });
  proxy = await startTcpProxy(server.hosts);
  admin = await zkClient(server.hosts);
  inner = new ZooKeeperLockStore({ conn: await zkClient(server.hosts, '/app') });
  store = judgedStore(inner);
}, 60_000);
afterAll(async () => {
  await Promise.all(holders.map((h) => h.stop()));
  await store?.close();
  admin?.client.close();
  await proxy?.stop();
  await server?.stop();
});

async function holder(hosts: string, path: string, timeoutS: number): Promise<KazooHolder> {
  const h = await startKazooHolder(hosts, path, path.split('/').pop()!, timeoutS);
  holders.push(h);
  return h;
}

const verdict = async (name: string): Promise<LockVerdict | null> => {
  const view = await store.inspect(name);
  return view ? (verdictOf(view) ?? null) : null;
};

describe('a ZooKeeper holder between two connections', () => {
  it('is never gone while kazoo may resume its session, and release --if-gone deletes nothing', async () => {
    const h = await holder(proxy.address, '/app/jobs/partitioned', 20);
    expect((await verdict('app/jobs/partitioned'))!.verdict).toBe('alive');
    const cut = proxy.cut(5_000);
    await h.next((e) => e.state === 'SUSPENDED', 5_000);
    const seen: LockVerdict[] = [];
    const release = runCli(
      [
        'release',
        `zookeeper://${server.hosts}/app`,
        'jobs/partitioned',
        '--if-gone',
        '--reason',
        'drill',
        '--accept-two-leaders',
      ],
      {},
    );
    for (const end = Date.now() + 4_000; Date.now() < end; await delay(200))
      seen.push((await verdict('app/jobs/partitioned'))!);
    const refused = await release;
    expect(refused.code, refused.stdout + refused.stderr).toBe(11);
    expect(refused.stdout).toMatch(
      /^Not released \(--if-gone\): its holder is judged unknown: Unknown: session 0x[0-9a-f]+ is connected to no member of the ensemble \(absent from every member’s cons for 0 s, never seen connected by this reader\): its client may resume it on any member until the servers’ longest session timeout \(maxSessionTimeout 40 s: it was never seen connected\) has passed, 40 s from now\. Nothing was touched\./,
    );
    expect(seen.map((v) => v.verdict)).not.toContain('gone');
    expect(seen.at(-1)!.sentence).toMatch(
      new RegExp(
        `^Unknown: session ${h.held.sid} is connected to no member of the ensemble \\(absent from every member’s cons for \\d+ s, last seen connected \\d+ s ago\\): its client may resume it on any member until its 20 s timeout has passed, \\d+ s from now\\.$`,
      ),
    );
    expect(seen.at(-1)!.settleMs).toBeGreaterThan(10_000);
    await cut;
    const resumed = await h.next((e, i) => i > 1 && e.state === 'CONNECTED', 20_000);
    expect(resumed.sid).toBe(h.held.sid); // the same session: kazoo still holds, and its node never went
    const node = await admin.read(`/app/jobs/partitioned/${h.held.node}`);
    expect(node && sessionLabel(long(node.stat.ephemeralOwner))).toBe(h.held.sid);
    expect(h.events.map((e) => e.state)).not.toContain('LOST');
    expect((await verdict('app/jobs/partitioned'))!.verdict).toBe('alive');
  }, 90_000);

  it('judges a SIGKILLed holder gone once its timeout has passed since the first read that missed it', async () => {
    const h = await holder(server.hosts, '/app/jobs/killed', 4);
    expect((await verdict('app/jobs/killed'))!.verdict).toBe('alive');
    h.child.kill('SIGKILL');
    let first: LockVerdict | null = null;
    for (let i = 0; i < 50 && first?.verdict !== 'unknown'; i++) first = await verdict('app/jobs/killed');
    expect(first!.sentence).toMatch(
      /its client may resume it on any member until its 4 s timeout has passed, 4 s from now\.$/,
    );
    const realNow = inner.now.bind(inner);
    inner.now = () => realNow() + 4_100; // the timeout passed (the store's clock moved, not slept)
    try {
      const v = (await verdict('app/jobs/killed'))!;
      expect(v.verdict).toBe('gone');
      expect(v.sentence).toMatch(
        new RegExp(
          `^Holder gone: session ${h.held.sid} has been connected to no member of the ensemble past its 4 s timeout \\(absent from every member’s cons for [45] s, last seen connected \\d+ s ago\\): ZooKeeper ends it at its next tick, and its node with it\\.$`,
        ),
      );
    } finally {
      inner.now = realNow;
    }
    for (let i = 0; i < 100 && (await verdict('app/jobs/killed')) !== null; i++) await delay(100);
    expect(await verdict('app/jobs/killed')).toBeNull(); // ZooKeeper ended the session and deleted its node itself
  }, 60_000);

  it('prints the lock’s whole address in its "Released" line', async () => {
    const h = await holder(server.hosts, '/app/jobs/cleared', 10);
    const view = (await store.inspect('app/jobs/cleared'))!;
    const args = ['release', `zookeeper://${server.hosts}/app`, 'jobs/cleared', '--version', view.version];
    const r = await runCli([...args, '--reason', 'drill', '--accept-two-leaders'], {});
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(
      `Released zookeeper://${server.hosts}/app/jobs/cleared (version ${view.version}).`,
    );
    await h.stop();
  }, 60_000);
});
