// PostgreSQL lock tables listed in keyset pages against a real server: a table of 12 000 ShedLock rows
// walks in pages of 5 000 after the last key (every held row once, an advisory lock on the first page), a row added
// past the cursor mid-walk is still seen, one row is read alone for an inspect, and a token that is not ours is a
// usage error naming the fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresLockStore } from '@/lib/lock/stores/postgres';
import { PAGE_ROWS } from '@/lib/lock/stores/postgres/table-pages';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

let pg: TestPostgres;
let store: PostgresLockStore;
const ROWS = 12_000;

beforeAll(async () => {
  pg = await startPostgres();
  await pg.admin.query(`CREATE TABLE shedlock (name VARCHAR(64) PRIMARY KEY, lock_until TIMESTAMP NOT NULL,
    locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL)`);
  // ShedLock's own insert: UTC timestamps, held for an hour
  await pg.admin.query(`INSERT INTO shedlock SELECT 'job-' || lpad(i::text, 6, '0'),
    timezone('utc', now()) + interval '1 hour', timezone('utc', now()), 'worker-' || i FROM generate_series(1, ${ROWS}) i`);
  store = new PostgresLockStore({ client: pg.admin, source: `postgres://127.0.0.1:${pg.port}/postgres` });
}, 60_000);
afterAll(() => pg?.stop());

describe('keyset pages', () => {
  it('walks a 12 000-row table in pages of 5 000, each held row once, a row added past the cursor included', async () => {
    const holder = await pg.connect({ application_name: 'migrate' });
    await holder.query('SELECT pg_advisory_lock(99)');
    const names: string[] = [];
    const sizes: number[] = [];
    let token: string | undefined;
    do {
      const page = await store.list(token);
      names.push(...page.locks.map((l) => l.name));
      sizes.push(page.locks.length);
      token = page.nextPageToken;
      if (sizes.length === 1)
        await pg.admin.query(`INSERT INTO shedlock VALUES ('job-999999', timezone('utc', now()) + interval '1 hour',
          timezone('utc', now()), 'late')`);
    } while (token && sizes.length < 10);
    expect(sizes.length).toBe(Math.ceil((ROWS + 1) / PAGE_ROWS));
    expect(sizes[0]).toBe(PAGE_ROWS + 1); // the advisory lock, then the table's first page
    expect(names).toContain('advisory:99');
    expect(names).toContain('public.shedlock/job-999999');
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBe(ROWS + 2);
    await holder.end();
  });

  it('reads one row alone for an inspect, and says a free row is free', async () => {
    const lock = await store.inspect('public.shedlock/job-004242');
    expect(lock).toMatchObject({ format: 'shedlock', identity: 'worker-4242', health: 'healthy' });
    expect(await store.inspect('public.shedlock/job-none')).toBeNull();
  });

  it('refuses a page token that is not one of its own, saying to list from the first page', async () => {
    await expect(store.list('bm90LWEtdG9rZW4')).rejects.toMatchObject({ code: 'USAGE', message: /first page/ });
  });
});
