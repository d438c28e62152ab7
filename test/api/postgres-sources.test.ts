// A PostgreSQL source in the console, through the route handlers against a throwaway cluster: advisory and table locks
// listed with their store (no password in any response), a release of exactly the row version seen, and the audit
// table with the tables' release history in the lock's history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockInfo } from '@/lib/lock';
import { acquirePgLock } from '@/lib/lock/stores/postgres';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

const OPERATOR = 'ops@example.com';
const VIEWER = 'viewer@example.com';
let pg: TestPostgres;
let routes: Routes;
let bucket: string;

beforeAll(async () => {
  pg = await startPostgres();
  await pg.admin.query(`ALTER ROLE postgres PASSWORD 'pg-secret-123'`);
  bucket = `postgres://127.0.0.1:${pg.port}/postgres`;
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `postgres://postgres:pg-secret-123@127.0.0.1:${pg.port}/postgres`,
    LOCKBOARD_OPERATORS: OPERATOR,
    LOCKBOARD_VIEWERS: VIEWER,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 60_000);
afterAll(() => pg?.stop());

type View = LockInfo & { store: string; version: string };

describe('PostgreSQL sources in the console', () => {
  it('lists advisory and row locks with their store; releases a row only at the version seen', async () => {
    const holder = await pg.connect({ application_name: 'prisma' });
    await holder.query('SELECT pg_advisory_lock(72707369)');
    const job = await pg.connect();
    await acquirePgLock({ client: job, name: 'billing', identity: 'billing-runner' });
    const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('pg-secret-123');
    const locks = res.json.locks as View[];
    expect(locks.map((l) => [l.store, l.bucket, l.name]).sort()).toEqual([
      ['postgres', bucket, 'advisory:72707369'],
      ['postgres', bucket, 'public.lockboard_locks/billing'],
    ]);
    const row = locks.find((l) => l.name === 'public.lockboard_locks/billing')!;
    // a version of another fencing token (the row's fields as read: name, token)
    const [name, token] = JSON.parse(row.version) as [string, string];
    const stale = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: {
        name: row.name,
        bucket,
        version: JSON.stringify([name, `${token}0`]),
        acknowledgeAlive: true,
        reason: 'x',
      },
    });
    expect(stale.status).toBe(409);
    // a version of no row's shape is the caller's mistake, said with what one looks like: nothing is attempted
    const malformed = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { name: row.name, bucket, version: `${row.version}0`, acknowledgeAlive: true, reason: 'x' },
    });
    expect(malformed.status).toBe(400);
    expect((malformed.json.error as { message: string }).message).toMatch(
      /is not a version of .*: a PostgreSQL version is/,
    );
    const done = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { name: row.name, bucket, version: row.version, acknowledgeAlive: true, reason: 'runner died' },
    });
    expect(done.status).toBe(200);
    const to = encodeURIComponent(new Date(Date.now() + 5_000).toISOString());
    const history = await call(
      routes.audit.GET,
      `/api/audit?lock=${encodeURIComponent(row.name)}&bucket=${encodeURIComponent(bucket)}&to=${to}`,
      {
        as: OPERATOR,
      },
    );
    expect((history.json.events as { event: string }[]).map((e) => e.event).sort()).toEqual([
      'force-release-refused',
      'force-release-requested',
      'force-release-requested',
      'force-released',
    ]);
    await holder.end();
    await job.end();
  });

  it('shows a holder’s query with its literals masked to viewers, and whole to operators only', async () => {
    const holder = await pg.connect({ application_name: 'admin-shell' });
    await holder.query("SELECT pg_advisory_lock(4242), 'ada@example.com' AS who");
    const name = 'advisory:4242';
    const query = (as: string) =>
      call(routes.lock.GET, `/api/locks/${name}?bucket=${encodeURIComponent(bucket)}`, { as }, { name: [name] });
    const viewer = await query(VIEWER);
    expect(viewer.status).toBe(200);
    expect(viewer.text).not.toContain('ada@example.com');
    expect(viewer.json.details).toContainEqual(['Current query', 'SELECT pg_advisory_lock(?), ? AS who']);
    expect(viewer.json.sensitive).toBeUndefined();
    const list = await call(routes.locks.GET, '/api/locks?source=all', { as: VIEWER });
    expect(list.text).not.toContain('ada@example.com');
    const operator = await query(OPERATOR);
    expect(operator.json.sensitive).toContainEqual([
      'Current query',
      "SELECT pg_advisory_lock(4242), 'ada@example.com' AS who",
    ]);
    await holder.end();
  });
});
