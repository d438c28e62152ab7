// The ZooKeeper store on Debian's real ZooKeeper, with locks written by real kazoo and Curator contenders: the queue
// in grant order, the exact-node release, and each trap of facts-coordination Part B §3 as a test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockView } from '@/lib/lock/store';
import type { ZkConn } from '@/lib/lock/stores/zookeeper/conn';
import { TwoLeadersError } from '@/lib/lock/stores/zookeeper/release';
import { ZooKeeperLockStore } from '@/lib/lock/stores/zookeeper/store';
import { ZooKeeperClaims } from '@/lib/lock/stores/zookeeper/claim';
import { type RecipeDriver, type ZkRig, startZkRig, until } from '../helpers/zookeeper';

let rig: ZkRig;
let k: RecipeDriver;
let c: RecipeDriver;
let admin: ZkConn;
let store: ZooKeeperLockStore;
const op = { reason: 'test', operator: 'ci' };

beforeAll(async () => {
  rig = await startZkRig('/app');
  ({ k, c, admin, store } = rig);
}, 30_000);
afterAll(() => rig?.stop());

describe('the ZooKeeper store on real kazoo and Curator locks', () => {
  it('shows a kazoo Lock’s holder and its waiters in sequence order, with their sessions', async () => {
    for (const who of ['alice', 'bob', 'carol']) await k.start(who, 'lock', '/app/jobs/report', who);
    const view = (await store.inspect('/app/jobs/report'))!;
    expect(view.format).toBe('kazoo-lock');
    expect(view.identity).toBe('alice');
    expect(view.waiters!.map((w) => w.identity)).toEqual(['bob', 'carol']);
    expect(Number(view.waiters![0]!.version)).toBeLessThan(Number(view.waiters![1]!.version));
    expect(view.details.find(([l]) => l === 'Holder node')![1]).toMatch(
      /session 0x[0-9a-f]+, client 127\.0\.0\.1:\d+, timeout 10 s/,
    );
  });

  it('never releases a waiter, and releasing the holder lets the first waiter in', async () => {
    const view = (await store.inspect('/app/jobs/report'))!;
    const bob = await admin.read(`/${view.waiters![0]!.key!}`);
    const asWaiter = `${bob!.stat.czxid.readBigInt64BE(0)}.${bob!.stat.version}`;
    const refused = await store.forceRelease({ name: view.name, version: asWaiter, ...op });
    expect(refused.outcome).toBe('changed');
    const byNode = await store.forceRelease({
      name: view.waiters![0]!.key!,
      version: view.waiters![0]!.version,
      ...op,
    });
    expect(byNode.outcome).toBe('not-a-lock');
    expect(byNode.current).toMatchObject({ queuedFor: 'app/jobs/report', releasable: false });
    expect(await admin.exists(`/${view.waiters![0]!.key!}`)).not.toBeNull();
    const r = await store.forceRelease({ name: view.name, version: view.version, ...op, acceptTwoLeaders: true });
    expect(r.outcome).toBe('released');
    expect(await until(() => k.held('bob'))).toBe(true);
    expect(await k.held('carol')).toBe(false);
    expect(await k.held('alice')).toBe(true); // the old holder is not told: the effect the dialog states
    // a stale view (alice's version) never touches bob's node
    const again = await store.forceRelease({ name: view.name, version: view.version, ...op, acceptTwoLeaders: true });
    expect(again.outcome).toBe('changed');
    expect((await store.inspect(view.name))!.identity).toBe('bob');
  });

  it('reads Curator’s mutex and semaphore (leases + locks as one lock) as holders and waiters', async () => {
    for (const id of ['m1', 'm2', 'm3']) await c.start(id, 'mutex', '/app/cur/mutex', '');
    for (const id of ['s1', 's2', 's3', 's4']) await c.start(id, 'semaphore', '/app/cur/sem', id, '2');
    const locks = new Map((await store.list()).locks.map((l) => [l.name, l] as [string, LockView]));
    expect(locks.get('app/cur/mutex')).toMatchObject({ format: 'curator-mutex' });
    expect(locks.get('app/cur/mutex')!.waiters).toHaveLength(2);
    const sem = locks.get('app/cur/sem')!;
    expect(sem.format).toBe('curator-semaphore');
    expect(sem.details.filter(([l]) => l.startsWith('Holder'))).toHaveLength(2);
    expect(sem.waiters).toHaveLength(2); // the one holding locks/ while it waits, then the locks/ queue
    expect(locks.has('app/cur/sem/leases') || locks.has('app/cur/sem/locks')).toBe(false);
  });

  it('refuses to release a LeaderLatch leader without the two-leaders confirmation; with it there are two leaders', async () => {
    await c.start('A', 'latch', '/app/cur/latch', 'leader-A');
    await c.start('B', 'latch', '/app/cur/latch', 'leader-B');
    expect(await until(() => c.held('A'))).toBe(true);
    const view = (await store.inspect('/app/cur/latch'))!;
    expect(view.terms.twoLeaders).toMatch(/keeps believing it leads until its ZooKeeper session ends/);
    expect(view.terms.confirmByName).toBe(true);
    await expect(store.forceRelease({ name: view.name, version: view.version, ...op })).rejects.toBeInstanceOf(
      TwoLeadersError,
    );
    expect((await store.inspect(view.name))!.identity).toBe('leader-A');
    const r = await store.forceRelease({ name: view.name, version: view.version, ...op, acceptTwoLeaders: true });
    expect(r.outcome).toBe('released');
    expect(await until(() => c.held('B'))).toBe(true);
    expect(await c.held('A')).toBe(true); // the trap the confirmation names: two leaders
  });

  it('reads a Curator LeaderSelector with an id as an election; a kazoo Election shares the Lock’s words', async () => {
    for (const id of ['sel-1', 'sel-2']) await c.start(id, 'selector', '/app/cur/selector', `node-${id}`);
    for (const id of ['e-1', 'e-2']) await k.start(id, 'election', '/app/api/leader', `api-${id}`);
    const selector = (await store.inspect('/app/cur/selector'))!;
    expect(selector).toMatchObject({ format: 'curator-leader-selector', identity: 'node-sel-1' });
    expect(selector.terms.twoLeaders).toMatch(/This is a leader election/);
    const election = (await store.inspect('/app/api/leader'))!;
    // a path named "leader" proves nothing: the words say what the layout is, as anywhere else
    expect(election.terms.twoLeaders).toMatch(/may be a kazoo Election leader/);
    expect(election.waiters!.map((w) => w.identity)).toEqual(['api-e-2']);
    expect((await store.inspect('/app/cur/mutex'))!.terms.twoLeaders).toMatch(/may be a Curator LeaderSelector/);
  });

  it('never deletes a re-created non-sequential node that restarted at the version seen (kazoo lease_holder)', async () => {
    await k.start('cron', 'lease', '/app/leases/hourly', 'cron-1', '600');
    const seen = (await store.inspect('/app/leases/hourly'))!;
    expect(seen).toMatchObject({ format: 'kazoo-lease', identity: 'cron-1', health: 'healthy' });
    expect(seen.terms.rule).toMatch(/weaker/);
    const holder = '/app/leases/hourly/lease_holder';
    const data = (await admin.read(holder))!.data;
    await admin.remove(holder, -1);
    await admin.create(holder, Buffer.from(String(data).replace('cron-1', 'cron-2')), admin.zk.CreateMode.PERSISTENT);
    expect((await admin.read(holder))!.stat.version).toBe(0); // the data version alone cannot tell them apart
    const r = await store.forceRelease({ name: seen.name, version: seen.version, ...op, acceptTwoLeaders: true });
    expect(r.outcome).toBe('changed');
    expect(await admin.exists(holder)).not.toBeNull();
  });

  it('records the attempt and the outcome under .lockboard/audit', async () => {
    const from = new Date(Date.now() - 60_000);
    const events = await store.readAudit(from, new Date(Date.now() + 1_000), '/app/jobs/report');
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['force-release-requested', 'force-released']));
    expect((await store.list()).locks.some((l) => l.name.includes('.lockboard'))).toBe(false);
  });
});

describe('webhook delivery claims on ZooKeeper', () => {
  it('removes claim nodes older than the keep time (by their ctime) on a later claim, and nothing else', async () => {
    const dir = '/app/.lockboard/claims';
    const first = new ZooKeeperClaims(admin, '/app');
    expect(await first.claim('notify-z-old')).toBe(true);
    expect(await first.claim('notify-z-old')).toBe(false);
    await admin.create(`${dir}/not_a_claim`, Buffer.alloc(0), admin.zk.CreateMode.PERSISTENT);
    await new Promise((r) => setTimeout(r, 1_200));
    // another console, keeping claims one second (two days in use): its first claim prunes
    const second = new ZooKeeperClaims(admin, '/app');
    expect(await second.claim('notify-z-new', 1_000)).toBe(true);
    expect(await until(async () => (await admin.exists(`${dir}/notify-z-old`)) === null)).toBe(true);
    expect((await admin.children(dir)).filter((n) => n.startsWith('not')).sort()).toEqual([
      'not_a_claim',
      'notify-z-new',
    ]);
    expect((await store.list()).locks.some((l) => l.name.includes('claims'))).toBe(false);
  });
});
