// Locks in a real PostgreSQL (a throwaway cluster from Debian's PostgreSQL 15): advisory locks from several sessions
// (bigint and two-int keys, a well-known key named, held / idle in transaction / waiting), lock tables written as
// their tools write them, a holder killed with kill -9, the guarded terminate that never signals a reused pid, and
// Lockboard's own lock with its released history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockLostError, LockTimeoutError } from '@/lib/lock';
import { listAll } from '@/lib/lock/list-all';
import { acquirePgLock, PostgresLockStore, withPgLock } from '@/lib/lock/stores/postgres';
import { SEED_TABLES_DDL, SEED_TAKE } from '@/lib/demo/seed-tables';
import { delay } from '../helpers/requests';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

let pg: TestPostgres;
let store: PostgresLockStore;
beforeAll(async () => {
  pg = await startPostgres();
  store = new PostgresLockStore({
    client: pg.admin,
    source: `postgres://127.0.0.1:${pg.port}/postgres`,
    longHeldMs: 60_000,
  });
}, 60_000);
afterAll(() => pg?.stop());

const byName = async () => Object.fromEntries((await listAll(store)).locks.map((l) => [l.name, l]));

describe('advisory locks', () => {
  it('shows bigint and two-int keys with their holders, names Prisma’s key, and folds waiters into the lock', async () => {
    const prisma = await pg.connect({ application_name: 'prisma-migrate' });
    await prisma.query('SELECT pg_advisory_lock(72707369)');
    const pair = await pg.connect({ application_name: 'batch' });
    await pair.query('SELECT pg_advisory_lock(7, -3)');
    const idle = await pg.connect({ application_name: 'stuck-job' });
    await idle.query('BEGIN');
    await idle.query('SELECT pg_advisory_xact_lock(424242)');
    const waiter = await pg.connect({ application_name: 'second-migrate' });
    void waiter.query('SELECT pg_advisory_lock(72707369)').catch(() => undefined); // blocks
    await delay(200);
    const locks = await byName();
    const p = locks['advisory:72707369']!;
    expect(p.formatLabel).toBe('Advisory lock (Prisma Migrate)');
    expect(p.details).toContainEqual(['Application', 'prisma-migrate']);
    expect(p.details.find(([k]) => k === 'Waiting')?.[1]).toMatch(/^pid \d+/);
    expect(p.details.find(([k]) => k === 'Current query')?.[1]).toBe('SELECT pg_advisory_lock(?)');
    expect(p.sensitive).toContainEqual(['Current query', 'SELECT pg_advisory_lock(72707369)']);
    expect(locks['advisory:7,-3']!.details).toContainEqual(['Key', '7,-3 (two int4)']);
    expect(locks['advisory:424242']!.health).toBe('overdue'); // idle in transaction
    expect(Object.keys(locks).filter((k) => k.startsWith('advisory:'))).toHaveLength(3);
    // a holder killed with kill -9 (here: its backend terminated): its advisory lock disappears
    await pg.admin.query('SELECT pg_terminate_backend($1)', [Number(locks['advisory:7,-3']!.pid)]);
    await delay(200);
    expect((await byName())['advisory:7,-3']).toBeUndefined();
    for (const c of [prisma, idle, waiter, pair]) await c.end().catch(() => undefined);
  });

  it('terminates only the same backend still holding the lock: a changed pid or backend start is refused', async () => {
    const holder = await pg.connect({ application_name: 'migrator' });
    await holder.query('SELECT pg_advisory_lock(555)');
    const seen = (await byName())['advisory:555']!;
    // the same pid with another backend start (what a reused pid looks like) must never be signalled
    const [pid, us, ...rest] = seen.version.split('.');
    const forged = [pid, String(BigInt(us!) + 1n), ...rest].join('.');
    expect((await store.forceRelease({ name: seen.name, version: forged, reason: 'x', operator: 'op' })).outcome).toBe(
      'changed',
    );
    expect((await holder.query('SELECT 1 AS ok')).rows[0].ok).toBe(1); // still alive
    const done = await store.forceRelease({
      name: seen.name,
      version: seen.version,
      reason: 'migration hung',
      operator: 'op',
    });
    expect(done.outcome).toBe('released');
    await delay(200);
    await expect(holder.query('SELECT 1')).rejects.toThrow();
    expect((await byName())['advisory:555']).toBeUndefined();
  });
});

describe('lock tables', () => {
  it('reads ShedLock (on now()), Liquibase and the unique-index table with holder liveness; releases only the version seen', async () => {
    await pg.admin.query(
      `CREATE TABLE shedlock (name varchar(64) PRIMARY KEY, lock_until timestamp, locked_at timestamp, locked_by varchar(255))`,
    );
    await pg.admin
      .query(`INSERT INTO shedlock VALUES ('report', timezone('utc', now()) + interval '10 minutes', timezone('utc', now()), 'app-1'),
      ('old', timezone('utc', now()) - interval '1 minute', timezone('utc', now()) - interval '5 minutes', 'app-2')`);
    await pg.admin.query(
      `CREATE TABLE databasechangeloglock (id int PRIMARY KEY, locked boolean NOT NULL, lockgranted timestamp, lockedby varchar(255))`,
    );
    await pg.admin.query(`INSERT INTO databasechangeloglock VALUES (1, true, now(), 'ci-runner-4 (10.0.0.7)')`);
    for (const ddl of SEED_TABLES_DDL) await pg.admin.query(ddl);
    const job = await pg.connect({ application_name: 'job' });
    await job.query(SEED_TAKE, ['nightly']);
    const crashed = await pg.connect();
    await crashed.query(SEED_TAKE, ['crashed']);
    const row = (await pg.admin.query(`SELECT id, ins FROM locks WHERE named = 'crashed'`)).rows[0];
    await crashed.end(); // its backend is gone
    await delay(200);
    const locks = await byName();
    expect(locks['public.shedlock/report']).toMatchObject({ format: 'shedlock', identity: 'app-1', health: 'healthy' });
    expect(locks['public.shedlock/old']).toBeUndefined(); // lock_until passed: released, kept as a row
    expect(locks['public.databasechangeloglock/changelog-lock-1']).toMatchObject({
      identity: 'ci-runner-4 (10.0.0.7)',
    });
    expect(locks['public.locks/nightly']!.health).toBe('healthy');
    expect(locks['public.locks/crashed']!.health).toBe('expired');
    expect(locks['public.locks/crashed']!.note).toMatch(/disconnected/);
    // ShedLock: a successor's row (another locked_at) is never released by the version seen before
    const seen = locks['public.shedlock/report']!;
    await pg.admin.query(
      `UPDATE shedlock SET locked_at = locked_at + interval '1 second', locked_by = 'app-3' WHERE name = 'report'`,
    );
    expect(
      (await store.forceRelease({ name: seen.name, version: seen.version, reason: 'x', operator: 'op' })).outcome,
    ).toBe('changed');
    const now = (await byName())['public.shedlock/report']!;
    expect(
      (await store.forceRelease({ name: now.name, version: now.version, reason: 'x', operator: 'op' })).outcome,
    ).toBe('released');
    // the unique-index row of the dead holder goes, with a record in its released history
    const dead = (await byName())['public.locks/crashed']!;
    expect(
      (await store.forceRelease({ name: dead.name, version: dead.version, reason: 'holder died', operator: 'op' }))
        .outcome,
    ).toBe('released');
    // moved as the seed's own acquit moves it: the row's id, and its ins as `locked`
    const { rows } = await pg.admin.query(`SELECT id, locked, problem, details FROM released WHERE named = 'crashed'`);
    expect(rows).toEqual([{ id: row.id, locked: row.ins, problem: 'force-released', details: 'by op: holder died' }]);
    await job.end();
  });
});

describe('db-scheduler', () => {
  it('shows picked executions, dead after 30 minutes without a heartbeat, and unpicks only the version seen', async () => {
    await pg.admin.query(`CREATE TABLE scheduled_tasks (task_name text, task_instance text, task_data bytea,
      execution_time timestamptz, picked boolean, picked_by text, last_success timestamptz, last_failure timestamptz,
      consecutive_failures int, last_heartbeat timestamptz, version bigint, PRIMARY KEY (task_name, task_instance))`);
    await pg.admin.query(`INSERT INTO scheduled_tasks VALUES
      ('invoices', 'daily', NULL, now(), true, 'node-a', NULL, NULL, 0, now(), 3),
      ('reports', 'weekly', NULL, now(), true, 'node-b', NULL, NULL, 0, now() - interval '2 hours', 7)`);
    const locks = await byName();
    expect(locks['public.scheduled_tasks/invoices/daily']).toMatchObject({
      format: 'db-scheduler',
      identity: 'node-a',
      health: 'healthy',
    });
    expect(locks['public.scheduled_tasks/reports/weekly']!.health).toBe('expired');
    const seen = locks['public.scheduled_tasks/reports/weekly']!;
    await pg.admin.query(`UPDATE scheduled_tasks SET version = version + 1 WHERE task_name = 'reports'`); // picked again
    expect(
      (await store.forceRelease({ name: seen.name, version: seen.version, reason: 'x', operator: 'op' })).outcome,
    ).toBe('changed');
    const now = (await byName())['public.scheduled_tasks/reports/weekly']!;
    expect(
      (await store.forceRelease({ name: now.name, version: now.version, reason: 'x', operator: 'op' })).outcome,
    ).toBe('released');
    const { rows } = await pg.admin.query(`SELECT picked, version FROM scheduled_tasks WHERE task_name = 'reports'`);
    expect(rows).toEqual([{ picked: false, version: '9' }]);
  });
});

describe("Lockboard's lock on PostgreSQL", () => {
  it('serialises sessions with growing fencing tokens; a dead holder is taken over; a failure is recorded with its problem', async () => {
    const a = await pg.connect();
    const b = await pg.connect();
    const first = await acquirePgLock({ client: a, name: 'deploy', identity: 'a' });
    const err = await acquirePgLock({ client: b, name: 'deploy', identity: 'b', timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as LockTimeoutError).holder?.identity).toBe('a');
    await a.end(); // the holder's session dies: its row is taken over in one statement
    const second = await acquirePgLock({ client: b, name: 'deploy', identity: 'b', timeoutMs: 5_000 });
    expect(second.tookOver).toBe(true);
    expect(BigInt(second.fencingToken)).toBeGreaterThan(BigInt(first.fencingToken));
    await second.release();
    await expect(
      withPgLock({ client: b, name: 'report' }, async () => {
        throw new TypeError('column "x" does not exist');
      }),
    ).rejects.toThrow('column "x"');
    const { rows } = await pg.admin.query(`SELECT problem, details FROM lockboard_released WHERE name = 'report'`);
    expect(rows).toEqual([{ problem: 'TypeError', details: 'column "x" does not exist' }]);
    const history = await store.readAudit(
      new Date(Date.now() - 60_000),
      new Date(Date.now() + 60_000),
      'public.lockboard_locks/report',
    );
    expect(history.map((e) => [e.event, e.outcome, e.error])).toEqual([
      ['released', 'error', 'TypeError: column "x" does not exist'],
    ]);
    await b.end();
  });

  it('is listed by the store, and a force-release aborts the holder with released-by-operator', async () => {
    const c = await pg.connect();
    const lock = await acquirePgLock({
      client: c,
      name: 'etl',
      identity: 'etl-runner',
      purpose: 'nightly etl',
      checkIntervalMs: 100,
    });
    const view = (await byName())['public.lockboard_locks/etl']!;
    expect([view.format, view.identity, view.health]).toEqual(['lockboard', 'etl-runner', 'healthy']);
    expect(
      (await store.forceRelease({ name: view.name, version: view.version, reason: 'x', operator: 'op' })).outcome,
    ).toBe('released');
    await new Promise<void>((resolve) => lock.signal.addEventListener('abort', () => resolve(), { once: true }));
    expect((lock.signal.reason as LockLostError).reason).toBe('released-by-operator');
    await c.end();
  });
});
