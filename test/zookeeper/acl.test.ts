// ACLs on Debian's real ZooKeeper: a source path readable only with digest credentials lists with them
// (ZOOKEEPER_AUTH), and without them says what to grant instead of showing an empty source.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ZooKeeperServer } from '@/lib/demo/zookeeper-server';
import { openSource, parseSource } from '@/lib/lock/stores';
import { connectZooKeeper, type ZkConn } from '@/lib/lock/stores/zookeeper/conn';
import { acquireZooKeeperLock } from '@/lib/lock/stores/zookeeper/acquire';
import { parseZooKeeperSource } from '@/lib/lock/stores/zookeeper/source';
import { startZooKeeper } from '../helpers/zookeeper';

let server: ZooKeeperServer;
let ops: ZkConn;

interface AclModule {
  ACL: new (perms: number, id: unknown) => unknown;
  Id: new (scheme: string, id: string) => unknown;
  Permission: { ALL: number };
}

beforeAll(async () => {
  server = await startZooKeeper();
  ops = await connectZooKeeper(parseZooKeeperSource(`zookeeper://ops:pw@${server.hosts}/`));
  const zk = ops.zk as unknown as AclModule;
  const digest = createHash('sha1').update('ops:pw').digest('base64');
  const acl = [new zk.ACL(zk.Permission.ALL, new zk.Id('digest', `ops:${digest}`))];
  const create = ops.client.create as unknown as (...a: unknown[]) => void;
  await new Promise<void>((resolve, reject) =>
    create.call(ops.client, '/secret', Buffer.alloc(0), acl, 0, (e: Error | null) => (e ? reject(e) : resolve())),
  );
  await acquireZooKeeperLock({ conn: ops, name: '/secret/jobs/nightly', identity: 'ops-runner' });
}, 30_000);
afterAll(async () => {
  ops?.client.close();
  await server?.stop();
});

it('lists a digest-protected source with ZOOKEEPER_AUTH, and without it names what to grant', async () => {
  const source = parseSource(`zookeeper://${server.hosts}/secret`);
  const anonymous = await openSource(source, { env: {}, role: 'cli' });
  await expect(anonymous.list()).rejects.toThrow(/refused this client .*NO_AUTH.*grant it READ/);
  await anonymous.close();
  const withAuth = parseSource(`zookeeper://${server.hosts}/secret`, { ZOOKEEPER_AUTH: 'ops:pw' });
  const store = await openSource(withAuth, { env: { ZOOKEEPER_AUTH: 'ops:pw' }, role: 'cli' });
  const page = await store.list();
  expect(page.locks.map((l) => [l.name, l.identity])).toEqual([['secret/jobs/nightly', 'ops-runner']]);
  expect(store.source).not.toContain('pw');
  await store.close();
});
