// A MySQL source in the console, through the route handlers, against a throwaway MariaDB: a Flyway named lock and a
// stuck Liquibase changelog lock listed with their store and versions, a query, the lock page by bucket, a release
// conditioned on the version (a stale one releases nothing: 409; a version of another store's shape 400; the current
// one ends the holder's connection), no password in any response, and the release in the lock's history.
import type { Connection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockInfo } from '@/lib/lock';
import { flywayLockName } from '@/lib/lock/stores/mysql';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';
import { call, routesFor, type Routes } from '../helpers/routes';

const OPERATOR = 'ops@example.com';
const VIEWER = 'viewer@example.com';
const FLYWAY = `named:${flywayLockName('app')}`;
const CHANGELOG = 'DATABASECHANGELOGLOCK/changelog-lock-1';
let m: TestMariadb;
let flyway: Connection;
let routes: Routes;
let bucket: string;

type View = LockInfo & { store: string; version: string; source: string };

beforeAll(async () => {
  m = await startMariadb();
  await m.admin.query(`CREATE TABLE DATABASECHANGELOGLOCK (ID INT NOT NULL, LOCKED TINYINT(1) NOT NULL,
    LOCKGRANTED datetime NULL, LOCKEDBY VARCHAR(255) NULL, CONSTRAINT PK_DATABASECHANGELOGLOCK PRIMARY KEY (ID))`);
  await m.admin.query(`INSERT INTO DATABASECHANGELOGLOCK VALUES (1, 1, NOW(), 'ci-runner-42 (10.0.3.7)')`);
  await m.admin.query(`CREATE USER lockboard@'%' IDENTIFIED BY 'hunter2-mysql'`);
  await m.admin.query(`GRANT ALL ON *.* TO lockboard@'%'`);
  flyway = await m.connect();
  await flyway.query('SELECT GET_LOCK(?, 10)', [flywayLockName('app')]);
  routes = await routesFor(`mysql://lockboard:hunter2-mysql@127.0.0.1:${m.port}/app`, OPERATOR, {
    LOCKBOARD_VIEWERS: VIEWER,
  });
}, 60_000);
afterAll(async () => {
  flyway?.destroy();
  await m?.stop();
});

const list = async (query = '') => {
  const r = await call(routes.locks.GET, `/api/locks?source=all${query}`, { as: VIEWER });
  expect(r.status, r.text).toBe(200);
  expect(r.text).not.toContain('hunter2');
  return r.json.locks as View[];
};
const release = (lock: View, version = lock.version) =>
  call(routes.release.POST, '/api/locks/release', {
    as: OPERATOR,
    method: 'POST',
    body: { source: lock.source, name: lock.name, version, acknowledgeAlive: true, reason: 'stuck since Friday' },
  });

describe('MySQL sources in the console', () => {
  it('lists the named lock and the changelog lock with their store and versions; never the password', async () => {
    const locks = await list();
    expect(locks.map((l) => [l.store, l.name]).sort()).toEqual([
      ['mysql', CHANGELOG],
      ['mysql', FLYWAY],
    ]);
    expect((await list('&q=CHANGELOG')).map((l) => l.name)).toEqual([CHANGELOG]);
  });

  it('shows one lock by name and bucket with the version the list shows, and a free one as absent', async () => {
    const listed = (await list()).find((l) => l.name === FLYWAY)!;
    bucket = listed.bucket;
    const page = (name: string) =>
      call(
        routes.lock.GET,
        `/api/locks/${name}?bucket=${encodeURIComponent(listed.bucket)}`,
        { as: VIEWER },
        {
          name: name.split('/'),
        },
      );
    const r = await page(FLYWAY);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ store: 'mysql', version: listed.version });
    expect(r.text).not.toContain('hunter2');
    expect((await page('named:nobody-holds-this')).json).toMatchObject({ absent: true });
  });

  it('releases only at the version seen: 409 for a stale one, 400 for a wrong shape, then ends the holder', async () => {
    const seen = (await list()).find((l) => l.name === CHANGELOG)!;
    await m.admin.query(`UPDATE DATABASECHANGELOGLOCK SET LOCKEDBY = 'ci-runner-43 (10.0.3.8)' WHERE ID = 1`);
    const stale = await release(seen);
    expect(stale.status, stale.text).toBe(409);
    const wrong = await release(seen, '12.1');
    expect(wrong.status, wrong.text).toBe(400);
    const current = (await list()).find((l) => l.name === CHANGELOG)!;
    const done = await release(current);
    expect(done.status, done.text).toBe(200);
    const named = (await list()).find((l) => l.name === FLYWAY)!;
    const ended = await release(named);
    expect(ended.status, ended.text).toBe(200);
    await expect(flyway.query('SELECT 1')).rejects.toThrow(); // its connection was ended
    expect(await list()).toEqual([]);
  });

  it('reads both attempts into the lock history: the stale one refused, the current one released', async () => {
    const to = encodeURIComponent(new Date(Date.now() + 5_000).toISOString());
    const r = await call(
      routes.audit.GET,
      `/api/audit?lock=${encodeURIComponent(CHANGELOG)}&bucket=${encodeURIComponent(bucket)}&to=${to}`,
      { as: VIEWER },
    );
    expect(r.status, r.text).toBe(200);
    expect((r.json.events as { event: string; lock: string }[]).map((e) => `${e.event}:${e.lock}`).sort()).toEqual([
      `force-release-refused:${CHANGELOG}`, // the stale version's attempt
      `force-release-requested:${CHANGELOG}`,
      `force-release-requested:${CHANGELOG}`,
      `force-released:${CHANGELOG}`,
    ]);
  });
});
