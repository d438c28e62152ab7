// lockboard discover on a real PostgreSQL: pg_database names the databases, each is listed as `ls` lists it (lock
// tables of a known shape, advisory locks held now), so the database holding locks is found with the formats `ls`
// names; a database without locks is not a candidate; the request budget holds; nothing is created or changed.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_TABLES_DDL, SEED_TAKE } from '@/lib/demo/seed-tables';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { discover, lsFormats } from '../cli/discover-fixtures';

let p: TestPostgres;
let server: string;
const sessions: pg.Client[] = [];

async function session(db: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: p.url.replace(/\/postgres$/, `/${db}`) });
  await client.connect();
  sessions.push(client);
  return client;
}

/** What a write would change: every table of a database and the rows of its lock table. */
async function contents(db: string) {
  const c = await session(db);
  const tables = (await c.query(`SELECT relname FROM pg_class WHERE relkind = 'r' ORDER BY relname`)).rows;
  const rows = tables.some((t: { relname: string }) => t.relname === 'locks')
    ? (await c.query('SELECT * FROM locks ORDER BY named')).rows
    : [];
  return JSON.stringify({ tables, rows });
}

beforeAll(async () => {
  p = await startPostgres();
  server = p.url.replace(/\/postgres$/, '/');
  await p.admin.query('CREATE DATABASE app');
  await p.admin.query('CREATE DATABASE quiet');
  const app = await session('app');
  for (const ddl of SEED_TABLES_DDL) await app.query(ddl);
  // a lock row taken as the seed lock-table tool takes it, and an advisory lock held by a session (Prisma Migrate's)
  await app.query(SEED_TAKE, ['nightly-report']);
  await (await session('app')).query('SELECT pg_advisory_lock(72707369)');
}, 60_000);
afterAll(async () => {
  for (const c of sessions) await c.end().catch(() => undefined);
  await p?.stop();
});

describe('lockboard discover postgres://USER@HOST:PORT/', () => {
  it('finds the database holding locks, with the formats ls lists there, and changes nothing', async () => {
    const before = await Promise.all(['app', 'quiet'].map(contents));
    const { report, bySource } = await discover(server);
    expect(report.unreachable).toBeUndefined();
    expect(report.roots).toBe(3); // postgres, app, quiet: every database that takes connections
    const source = `postgres://127.0.0.1:${p.port}/app`;
    expect(Object.keys(bySource)).toEqual([source]);
    expect(bySource[source]!.locks).toBe(2);
    expect(bySource[source]!.formats).toEqual(await lsFormats(source.replace('//', '//postgres@')));
    expect(report.problems).toEqual([]);
    expect(await Promise.all(['app', 'quiet'].map(contents))).toEqual(before);
  });

  it('stops at the request budget and names the databases not listed', async () => {
    const { report } = await discover(server, { maxRequests: 2 });
    expect(report.requests).toBe(2); // pg_database, then the first database's page
    expect(report.cappedBy).toBe('requests');
    expect(report.problems).toEqual([
      `postgres://127.0.0.1:${p.port}/postgres: not listed (requests bound reached)`,
      `postgres://127.0.0.1:${p.port}/quiet: not listed (requests bound reached)`,
    ]);
  });

  it('names a database its user may not connect to, and still discovers the others', async () => {
    await p.admin.query('CREATE DATABASE secret');
    await p.admin.query('REVOKE CONNECT ON DATABASE secret FROM PUBLIC');
    await p.admin.query('CREATE ROLE scout LOGIN');
    try {
      const { report, bySource } = await discover(server.replace('//postgres@', '//scout@'));
      expect(report.problems).toEqual([
        `postgres://scout@127.0.0.1:${p.port}/secret: not listed (permission denied: this user has no CONNECT on it)`,
      ]);
      expect(Object.keys(bySource)).toEqual([`postgres://127.0.0.1:${p.port}/app`]);
    } finally {
      await p.admin.query('DROP DATABASE secret');
      await p.admin.query('DROP ROLE scout');
    }
  });

  it('reports a server that cannot be reached', async () => {
    const { report } = await discover('postgres://postgres@127.0.0.1:1/');
    expect(report.unreachable).toMatch(/ECONNREFUSED|Cannot reach/);
  });
});
