// lockboard discover on a real ZooKeeper: the tree is walked as `ls zookeeper://HOST:PORT/` walks it, the recipes'
// locks (kazoo's Lock, Curator's mutex) grouped by their first path segment into sources ls takes, together
// exactly what ls lists at the root; no znode is created, changed or deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperServer } from '@/lib/demo/zookeeper-server';
import type { ZkConn } from '@/lib/lock/stores/zookeeper/conn';
import { curator, kazoo, startZooKeeper, zkClient, type RecipeDriver } from '../helpers/zookeeper';
import { discover, lsFormats } from '../cli/discover-fixtures';

let server: ZooKeeperServer;
let k: RecipeDriver;
let c: RecipeDriver;
let admin: ZkConn;

/** Every znode with its data version and child version: a write of any kind changes it. */
async function tree(path = '/'): Promise<string[]> {
  const stat = await admin.exists(path);
  const kids = path === '/zookeeper' ? [] : await admin.children(path);
  const below = await Promise.all(kids.map((n) => tree(`${path === '/' ? '' : path}/${n}`)));
  return [`${path} ${stat?.version} ${stat?.cversion}`, ...below.flat()];
}

beforeAll(async () => {
  server = await startZooKeeper();
  [k, c] = [kazoo(server.hosts), curator(server.hosts)];
  admin = await zkClient(server.hosts);
  await k.start('deploy', 'lock', '/run/deploy', 'kazoo-deploy');
  await c.start('compactor', 'mutex', '/svc/jobs/compactor', '');
}, 120_000);
afterAll(async () => {
  admin?.client.close();
  await Promise.all([k?.stop(), c?.stop()]);
  await server?.stop();
});

describe('lockboard discover zookeeper://HOST:PORT', () => {
  it("finds each recipe's locks under their first path segment, exactly what ls lists, writing nothing", async () => {
    const root = `zookeeper://${server.hosts}/`;
    const before = await tree();
    const { report, bySource } = await discover(`zookeeper://${server.hosts}`);
    expect(report.unreachable).toBeUndefined();
    expect(Object.keys(bySource).sort()).toEqual([`${root}run/`, `${root}svc/`]);
    for (const [source, found] of Object.entries(bySource)) expect(found.formats).toEqual(await lsFormats(source));
    const all: Record<string, number> = {};
    for (const x of report.candidates) for (const [f, n] of Object.entries(x.formats)) all[f] = (all[f] ?? 0) + n;
    expect(all).toEqual(await lsFormats(root));
    expect(await tree()).toEqual(before);
  });

  it('refuses a target with a path: that is a source, for ls', async () => {
    await expect(discover(`zookeeper://${server.hosts}/svc`)).rejects.toThrow(/expected zookeeper:\/\/HOST:PORT/);
  });
});
