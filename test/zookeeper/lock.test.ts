// Lockboard's lock on Debian's real ZooKeeper: one queue with real kazoo contenders (kazoo's Lock layout), a fencing
// token from the sequence, loss through the signal, and the change feed of the lock parents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockLostError, LockTimeoutError } from '@/lib/lock/errors';
import type { ZooKeeperServer } from '@/lib/demo/zookeeper-server';
import { acquireZooKeeperLock } from '@/lib/lock/stores/zookeeper/acquire';
import { ZooKeeperLockStore } from '@/lib/lock/stores/zookeeper/store';
import type { ZkConn } from '@/lib/lock/stores/zookeeper/conn';
import { kazoo, startZooKeeper, until, zkClient, type RecipeDriver } from '../helpers/zookeeper';

let server: ZooKeeperServer;
let k: RecipeDriver;
let conn: ZkConn;
let store: ZooKeeperLockStore;

beforeAll(async () => {
  server = await startZooKeeper();
  k = kazoo(server.hosts);
  conn = await zkClient(server.hosts);
  store = new ZooKeeperLockStore({ conn: await zkClient(server.hosts, '/run') });
}, 30_000);
afterAll(async () => {
  conn?.client.close();
  await store?.close();
  await k?.stop();
  await server?.stop();
});

/**
 * The classic way to expire a session: connect with its id and password, then close that connection. The owner may
 * win its connection back first (then the close does not reach the server): tried again until it expires.
 */
async function expireSession(own: ZkConn): Promise<void> {
  let expired = false;
  own.client.once('expired', () => (expired = true));
  for (let i = 0; i < 10 && !expired; i++) {
    const twin = own.zk.createClient(server.hosts, {
      sessionId: own.client.getSessionId(),
      sessionPassword: (own.client as unknown as { getSessionPassword(): Buffer }).getSessionPassword(),
    } as never);
    await new Promise<void>((r) => {
      const timer = setTimeout(r, 1_000); // the owner took the session back first: try again
      twin.once('connected', () => (clearTimeout(timer), r()));
      twin.connect();
    });
    twin.close();
    for (let j = 0; j < 20 && !expired; j++) await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Lockboard’s lock on ZooKeeper', () => {
  it('queues with kazoo in one queue: after kazoo’s holder, before a later kazoo contender', async () => {
    await k.start('first', 'lock', '/run/deploy', 'kazoo-first');
    const waiting = acquireZooKeeperLock({ conn, name: '/run/deploy', identity: 'lockboard-ci' });
    expect(await until(async () => (await store.inspect('/run/deploy'))?.waiters?.length === 1)).toBe(true);
    await k.start('last', 'lock', '/run/deploy', 'kazoo-last');
    const view = (await store.inspect('/run/deploy'))!;
    expect(view.waiters!.map((w) => w.identity)).toEqual(['lockboard-ci', 'kazoo-last']);
    await k.release('first');
    const lock = await waiting;
    expect(lock.fencingToken).toBe('1'); // the sequence of its node: the second in this parent
    expect((await store.inspect('/run/deploy'))!).toMatchObject({ format: 'lockboard', identity: 'lockboard-ci' });
    expect(await k.held('last')).toBe(false);
    expect(await lock.release()).toBe('released');
    expect(await until(() => k.held('last'))).toBe(true);
    await k.release('last');
  });

  it('with timeoutMs 0 tries once and leaves no node behind', async () => {
    await k.start('holder', 'lock', '/run/once', 'kazoo-holder');
    await expect(acquireZooKeeperLock({ conn, name: '/run/once', timeoutMs: 0 })).rejects.toBeInstanceOf(
      LockTimeoutError,
    );
    expect(await conn.children('/run/once')).toHaveLength(1);
    await k.release('holder');
  });

  it('aborts its signal when an operator force-releases its node', async () => {
    const lock = await acquireZooKeeperLock({ conn, name: '/run/nightly', identity: 'lockboard-nightly' });
    const view = (await store.inspect('/run/nightly'))!;
    const r = await store.forceRelease({ name: view.name, version: view.version, reason: 'test', operator: 'ci' });
    expect(r.outcome).toBe('released');
    expect(await until(async () => lock.signal.aborted)).toBe(true);
    expect(lock.signal.reason).toBeInstanceOf(LockLostError);
    expect(await lock.release()).toBe('already-lost');
  });

  it('aborts its signal when its session expires (closed by another client with the same session id)', async () => {
    const own = await zkClient(server.hosts);
    const lock = await acquireZooKeeperLock({ conn: own, name: '/run/expiring', identity: 'lockboard-expiring' });
    await expireSession(own);
    expect(await until(async () => lock.signal.aborted)).toBe(true);
    expect(String((lock.signal.reason as Error).message)).toMatch(/session expired|node was deleted/);
    expect(await conn.children('/run/expiring')).toEqual([]);
    own.client.close();
  });

  it('reports a new contender through the change feed within a second, and a lost connection as missed', async () => {
    const changed: string[] = [];
    const missed: string[] = [];
    const feed = (await store.changes({ changed: (n) => changed.push(...n), missed: (r) => missed.push(r) }))!;
    const t0 = Date.now();
    await k.start('feed', 'lock', '/run/deploy', 'kazoo-feed');
    expect(await until(async () => changed.includes('run/deploy'))).toBe(true);
    expect(Date.now() - t0).toBeLessThan(1_000);
    changed.length = 0;
    await k.release('feed');
    expect(await until(async () => changed.includes('run/deploy'))).toBe(true); // the watch was re-armed
    await server.stop();
    expect(await until(async () => missed.length > 0)).toBe(true);
    await feed.stop();
  });
});
