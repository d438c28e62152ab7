// Row versions on a real PostgreSQL that survive any character in any field (#57): ShedLock, Liquibase, Laravel's
// cache_locks and db-scheduler rows with "|" in every text field release exactly as seen; a malformed version
// is a usage error checked before anything is audited; a version in the older "|"-joined form still releases where it
// is unambiguous (no field holds a "|").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VersionShapeError } from '@/lib/lock/store';
import { PostgresLockStore } from '@/lib/lock/stores/postgres';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

let pg: TestPostgres;
let store: PostgresLockStore;
beforeAll(async () => {
  pg = await startPostgres();
  store = new PostgresLockStore({ client: pg.admin, source: `postgres://127.0.0.1:${pg.port}/postgres` });
  await pg.admin.query(
    `CREATE TABLE shedlock (name varchar(64) PRIMARY KEY, lock_until timestamp, locked_at timestamp, locked_by varchar(255))`,
  );
  await pg.admin.query(
    `CREATE TABLE databasechangeloglock (id int PRIMARY KEY, locked boolean NOT NULL, lockgranted timestamp, lockedby varchar(255))`,
  );
  // Laravel's default cache migration (0001_01_01_000001_create_cache_table.php) on PostgreSQL
  await pg.admin.query(
    `CREATE TABLE cache_locks ("key" varchar(255) NOT NULL PRIMARY KEY, "owner" varchar(255) NOT NULL, "expiration" integer NOT NULL)`,
  );
  await pg.admin.query(`CREATE TABLE scheduled_tasks (task_name text, task_instance text, picked boolean,
    picked_by text, last_heartbeat timestamptz, version bigint, PRIMARY KEY (task_name, task_instance))`);
}, 60_000);
afterAll(() => pg?.stop());

const release = (name: string, version: string) =>
  store.forceRelease({ name, version, reason: 'stuck', operator: 'ops@example.com' });
const trail = async (lock: string) =>
  (await store.readAudit(new Date(Date.now() - 600_000), new Date(Date.now() + 60_000), lock)).map((e) => e.event);
const shedlock = (name: string, by: string) =>
  pg.admin.query(
    `INSERT INTO shedlock VALUES ($1, timezone('utc', now()) + interval '10 minutes', timezone('utc', now()), $2)`,
    [name, by],
  );

describe('row versions with "|" in every field', () => {
  it('releases a ShedLock row whose name and locked_by hold "|", with attempt and outcome in the trail', async () => {
    await shedlock('report|daily', 'host|a (10.0.0.1|x)');
    const lock = (await store.inspect('public.shedlock/report|daily'))!;
    expect(JSON.parse(lock.version)).toEqual([
      'report|daily',
      'host|a (10.0.0.1|x)',
      expect.any(String),
      expect.any(String),
    ]);
    expect(lock.versionLabel).toMatch(/^row host\|a \(10\.0\.0\.1\|x\) · /);
    expect((await release(lock.name, lock.version)).outcome).toBe('released');
    expect(await trail(lock.name)).toEqual(['force-release-requested', 'force-released']);
    expect(await store.inspect(lock.name)).toBeNull();
  });

  it('releases a Liquibase lock whose LOCKEDBY holds "|", and refuses it once taken again', async () => {
    await pg.admin.query(`INSERT INTO databasechangeloglock VALUES (1, true, now(), 'ci|runner-4 (10.0.0.7|b)')`);
    const seen = (await store.inspect('public.databasechangeloglock/changelog-lock-1'))!;
    await pg.admin.query(`UPDATE databasechangeloglock SET lockgranted = lockgranted + interval '1 second'`);
    expect((await release(seen.name, seen.version)).outcome).toBe('changed');
    const now = (await store.inspect(seen.name))!;
    expect((await release(now.name, now.version)).outcome).toBe('released');
    const { rows } = await pg.admin.query(`SELECT locked, lockedby FROM databasechangeloglock`);
    expect(rows).toEqual([{ locked: false, lockedby: null }]);
  });

  it('lists a Laravel cache lock by its expiration and deletes it when its key and owner hold "|", a new owner kept', async () => {
    const key = 'laravel_cache|framework/schedule|6f1a';
    await pg.admin.query('insert into "cache_locks" ("key", "owner", "expiration") values ($1, $2, $3)', [
      key,
      'Ab3|E6gH9jK2mN5p',
      Math.floor(Date.now() / 1000) + 86_400,
    ]);
    const seen = (await store.list()).locks.find((l) => l.name === `public.cache_locks/${key}`)!;
    expect(seen).toMatchObject({ format: 'laravel', formatLabel: 'Laravel cache lock', identity: 'Ab3|E6gH9jK2mN5p' });
    expect(seen.health).toBe('healthy');
    expect(Date.parse(seen.expiresAt!) - Date.now()).toBeGreaterThan(86_000_000);
    // another process's Cache::lock() after expiry: a new owner
    await pg.admin.query('update "cache_locks" set "owner" = $1', ['Zz9|Y8xX7wW6vV5u']);
    expect((await release(seen.name, seen.version)).outcome).toBe('changed');
    const now = (await store.inspect(seen.name))!;
    expect((await release(now.name, now.version)).outcome).toBe('released');
    expect((await pg.admin.query('SELECT 1 FROM cache_locks')).rows).toHaveLength(0);
  });

  it('unpicks a db-scheduler execution whose task name and instance hold "|"', async () => {
    await pg.admin.query(`INSERT INTO scheduled_tasks VALUES ('report|x', 'i|1', true, 'node|7', now(), 3)`);
    const lock = (await store.inspect('public.scheduled_tasks/report|x/i|1'))!;
    expect((await release(lock.name, lock.version)).outcome).toBe('released');
    const { rows } = await pg.admin.query(`SELECT picked, version FROM scheduled_tasks`);
    expect(rows).toEqual([{ picked: false, version: '4' }]);
  });
});

describe('malformed and older versions', () => {
  it('refuses a version of another shape before anything is audited, saying what a ShedLock row version looks like', async () => {
    await shedlock('nightly|run', 'w|1');
    const lock = (await store.inspect('public.shedlock/nightly|run'))!;
    const [name, by, at, until] = JSON.parse(lock.version) as string[];
    const old = [name, by, at, until].join('|'); // the "|" form: ambiguous here, so refused
    for (const bad of [old, JSON.stringify([name, by, at]), JSON.stringify([name, by, at, 5]), '12.3.4.5.6.7']) {
      const err = await release(lock.name, bad).catch((e: unknown) => e);
      expect(err, bad).toBeInstanceOf(VersionShapeError);
      expect((err as Error).message).toMatch(
        /a ShedLock row's version is \["NAME","LOCKED_BY","LOCKED_AT","LOCK_UNTIL"\]/,
      );
    }
    expect(await trail(lock.name)).toEqual([]);
    expect((await release(lock.name, lock.version)).outcome).toBe('released');
  });

  it('still releases a version in the older "|" form where no field holds a "|" (a saved link)', async () => {
    await shedlock('cleanup', 'worker-2');
    const lock = (await store.inspect('public.shedlock/cleanup'))!;
    const old = (JSON.parse(lock.version) as string[]).join('|');
    expect((await release(lock.name, old)).outcome).toBe('released');
    expect(await trail(lock.name)).toEqual(['force-release-requested', 'force-released']);
  });

  it('refuses an advisory lock version for a row, and a row version for an advisory lock, before auditing', async () => {
    await shedlock('mixed', 'w');
    const row = (await store.inspect('public.shedlock/mixed'))!;
    await expect(release(row.name, '1.2.3.4.5.6')).rejects.toBeInstanceOf(VersionShapeError);
    const holder = await pg.connect();
    await holder.query('SELECT pg_advisory_lock(4242)');
    const advisory = (await store.list()).locks.find((l) => l.format === 'advisory')!;
    await expect(release(advisory.name, row.version)).rejects.toThrow(/an advisory lock's version is/);
    expect([...(await trail(row.name)), ...(await trail(advisory.name))]).toEqual([]);
    await holder.end();
  });
});
