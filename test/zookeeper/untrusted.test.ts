// ZooKeeper nodes where any client with create access writes what it likes (#39 item 1): Lockboard-looking data with
// a wrong-typed identity, a kazoo lease that is JSON `null`, and hostile text cost only their own lock; the tree
// lists in the library and the CLI (text escaped).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperServer } from '@/lib/demo/zookeeper-server';
import type { ZkConn } from '@/lib/lock/stores/zookeeper/conn';
import { ZooKeeperLockStore } from '@/lib/lock/stores/zookeeper/store';
import { runCli } from '../helpers/cli';
import { HOSTILE_TEXT, RAW_UNSAFE, textFieldsAreText } from '../helpers/fuzz';
import { startZooKeeper, zkClient } from '../helpers/zookeeper';
import { trustAuditRecords } from '@/lib/lock/audit/trust';

const PERSISTENT = 0;
const EPHEMERAL_SEQUENTIAL = 3;
let server: ZooKeeperServer;
let admin: ZkConn;

const lockNode = (parent: string, data: string) =>
  admin.create(`${parent}/${randomUUID().replace(/-/g, '')}__lock__`, Buffer.from(data), EPHEMERAL_SEQUENTIAL);

beforeAll(async () => {
  server = await startZooKeeper();
  admin = await zkClient(server.hosts);
  for (const p of ['/app', '/app/good', '/app/evil', '/app/lease', '/app/hostile'])
    await admin.create(p, Buffer.alloc(0), PERSISTENT);
  await lockNode('/app/good', 'good-holder');
  await lockNode('/app/evil', '{"format":"lockboard/1","identity":{"a":1},"host":["x"]}');
  await admin.create('/app/lease/lease_holder', Buffer.from('null'), PERSISTENT);
  for (const text of HOSTILE_TEXT) await lockNode('/app/hostile', text);
}, 30_000);
afterAll(async () => {
  admin?.client.close();
  await server?.stop();
});

describe('untrusted ZooKeeper nodes', () => {
  it('list in the library with every shown field as text', async () => {
    const store = new ZooKeeperLockStore({ conn: await zkClient(server.hosts, '/app') });
    try {
      const { locks } = await store.list();
      expect(locks.map((l) => l.name)).toEqual(expect.arrayContaining(['app/good', 'app/evil', 'app/hostile']));
      for (const l of locks) expect(textFieldsAreText(l as never), l.name).toEqual([]);
      expect(locks.find((l) => l.name === 'app/evil')!.identity ?? '').not.toContain('object');
    } finally {
      await store.close();
    }
  });

  it('list in the CLI with holders’ text escaped', async () => {
    const ls = await runCli(['ls', `zookeeper://${server.hosts}/app`], {});
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toContain('app/good');
    expect(ls.stdout).not.toMatch(RAW_UNSAFE);
  });
});

describe('trail times on ZooKeeper', () => {
  it('dates a back-dated forged node by its ctime (the server’s), not by its name or body', async () => {
    const before = Date.now();
    const back = before - 2 * 3_600_000;
    const body = { event: 'force-released', lock: 'app/good', reason: 'back-dated', at: new Date(back).toISOString() };
    await admin.mkdirp('/app/.lockboard/audit');
    await admin.create(`/app/.lockboard/audit/e-${before}-`, Buffer.from(JSON.stringify(body)), 2);
    const store = new ZooKeeperLockStore({ conn: await zkClient(server.hosts, '/app') });
    try {
      const read = await store.readAudit(new Date(before - 3 * 3_600_000), new Date(Date.now() + 60_000));
      const forged = trustAuditRecords(read).find((e) => e.reason === 'back-dated')!;
      expect(Date.parse(forged.at)).toBeGreaterThanOrEqual(before - 2_000);
      expect(forged).toMatchObject({ verified: false });
    } finally {
      await store.close();
    }
  });
});
