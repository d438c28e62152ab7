// A ZooKeeper source in the console, through the route handlers against Debian's ZooKeeper with real Curator
// LeaderLatch candidates: the queue in the listing (no digest credentials in any response), and a leader's release
// refused (400, naming the confirmation) until the operator accepts that the old leader keeps leading.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockView } from '@/lib/lock/store';
import type { ZooKeeperServer } from '@/lib/demo/zookeeper-server';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { curator, startZooKeeper, type RecipeDriver } from '../helpers/zookeeper';

const OPERATOR = 'ops@example.com';
let server: ZooKeeperServer;
let c: RecipeDriver;
let routes: Routes;
let bucket: string;

beforeAll(async () => {
  server = await startZooKeeper();
  c = curator(server.hosts);
  for (const id of ['A', 'B']) await c.start(id, 'latch', '/svc/billing/latch', `billing-${id}`);
  bucket = `zookeeper://${server.hosts}/svc`;
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `zookeeper://ops:zk-secret-123@${server.hosts}/svc`,
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 60_000);
afterAll(async () => {
  await c?.stop();
  await server?.stop();
});

describe('ZooKeeper sources in the console', () => {
  it('lists the leader and its candidates; releases the leader only with acceptTwoLeaders', async () => {
    const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('zk-secret-123');
    const row = (res.json.locks as LockView[]).find((l) => l.name === 'svc/billing/latch')!;
    expect(row).toMatchObject({ store: 'zookeeper', identity: 'billing-A', format: 'curator-leader-latch' });
    // the release dialog opens on the lock page's full view (a listing row is the index's lean copy)
    const page = await call(
      routes.lock.GET,
      `/api/locks/${row.name}?bucket=${encodeURIComponent(bucket)}`,
      { as: OPERATOR },
      { name: row.name.split('/') },
    );
    expect(page.status, page.text).toBe(200);
    const latch = page.json as unknown as LockView;
    expect(latch.waiters!.map((w) => w.identity)).toEqual(['billing-B']);
    expect(latch.terms.twoLeaders).toMatch(/two leaders/);
    const body = { name: latch.name, bucket, version: latch.version, acknowledgeAlive: true, reason: 'failover drill' };
    const refused = await call(routes.release.POST, '/api/locks/release', { as: OPERATOR, method: 'POST', body });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/acceptTwoLeaders/);
    const done = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { ...body, acceptTwoLeaders: true },
    });
    expect(done.status, done.text).toBe(200);
  });
});
