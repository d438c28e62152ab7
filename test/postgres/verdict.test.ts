// The verdict on advisory-lock holders from real sessions (stores.md "Verdict"): a session idle in a transaction and
// one running a query are alive; a holder blocked behind another session's advisory lock is stalled; once its session
// ends the lock is no longer listed. Lock tables: the seed's unique-index row and Lockboard's own row alive while the
// backend that wrote them is connected, gone once it is not; ShedLock and Liquibase unknown by their own rules.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_TABLES_DDL, SEED_TAKE } from '@/lib/demo/seed-tables';
import { acquirePgLock, PostgresLockStore } from '@/lib/lock/stores/postgres';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { verdictOf as judged } from '@/lib/lock/verdict/verdict';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

let db: TestPostgres;
beforeAll(async () => {
  db = await startPostgres();
}, 120_000);
afterAll(() => db?.stop());

const verdictOf = async (store: ReturnType<typeof judgedStore>, key: number) =>
  judged((await store.list()).locks.find((l) => l.name === `advisory:${key}`)!);

async function until<T>(fn: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
}

describe('advisory lock holders judged from their sessions', () => {
  it('judges idle in a transaction alive (under the threshold), a blocked holder stalled', async () => {
    const store = judgedStore(
      new PostgresLockStore({ client: db.admin, source: `postgres://127.0.0.1:${db.port}/postgres` }),
    );
    const idle: pg.Client = await db.connect({ application_name: 'idle-tx' });
    await idle.query('BEGIN');
    await idle.query('SELECT pg_advisory_xact_lock(4711)');
    const v1 = (await verdictOf(store, 4711))!;
    expect(v1.verdict).toBe('alive');
    expect(v1.sentence).toMatch(
      /^Alive: PostgreSQL pid \d+ has been idle in a transaction for \d+ s, waiting for its client/,
    );
    expect(v1.evidence[0]!.from).toBe('pg_stat_activity, pg_blocking_pids');

    const other: pg.Client = await db.connect({ application_name: 'other' });
    await other.query('SELECT pg_advisory_lock(812)');
    const stuck: pg.Client = await db.connect({ application_name: 'stuck' });
    await stuck.query('SELECT pg_advisory_lock(813)');
    void stuck.query('SELECT pg_advisory_lock(812)').catch(() => undefined); // waits behind `other`
    const v2 = await until(async () => {
      const v = await verdictOf(store, 813);
      return v?.verdict === 'stalled' ? v : undefined;
    });
    expect(v2.sentence).toMatch(/^Stalled: PostgreSQL pid \d+ is blocked by pid \d+ \(Lock\/advisory\)/);
    expect((await verdictOf(store, 812))!.verdict).toBe('alive');
    await other.end();
    await stuck.end().catch(() => undefined);
    await idle.end();
  }, 60_000);
});

describe('lock table rows judged by their holder backends and their tools’ rules', () => {
  const tableVerdict = async (store: ReturnType<typeof judgedStore>, name: string) => {
    const view = await store.inspect(name);
    return view ? judged(view) : undefined;
  };

  it('judges the seed’s unique-index row alive while its backend is connected, gone once it is not', async () => {
    const store = judgedStore(
      new PostgresLockStore({ client: db.admin, source: `postgres://127.0.0.1:${db.port}/postgres` }),
    );
    for (const ddl of SEED_TABLES_DDL) await db.admin.query(ddl);
    const job: pg.Client = await db.connect({ application_name: 'job' });
    await job.query(SEED_TAKE, ['nightly']);
    const pid = (await job.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const alive = (await tableVerdict(store, 'public.locks/nightly'))!;
    expect(alive.verdict).toBe('alive');
    expect(alive.sentence).toBe(`Alive: PostgreSQL pid ${pid}, which wrote the row, is still connected.`);
    expect(alive.evidence[0]!.from).toBe('pg_stat_activity, public.locks (row nightly)');
    await job.end();
    const gone = await until(async () => {
      const v = await tableVerdict(store, 'public.locks/nightly');
      return v?.verdict === 'gone' ? v : undefined;
    });
    expect(gone.sentence).toMatch(
      new RegExp(`^Holder gone: PostgreSQL pid ${pid}, which wrote the row, is no longer connected`),
    );
  }, 60_000);

  it('judges Lockboard’s own table lock by its holder’s backend', async () => {
    const store = judgedStore(
      new PostgresLockStore({ client: db.admin, source: `postgres://127.0.0.1:${db.port}/postgres` }),
    );
    const holder: pg.Client = await db.connect({ application_name: 'etl' });
    await acquirePgLock({ client: holder, name: 'etl', identity: 'etl-runner' });
    const [name] = (await store.list()).locks.filter((l) => l.name.endsWith('/etl')).map((l) => l.name);
    expect((await tableVerdict(store, name!))!.verdict).toBe('alive');
    await holder.end();
    await until(async () => ((await tableVerdict(store, name!))?.verdict === 'gone' ? true : undefined));
  }, 60_000);

  it('says ShedLock holds until lock_until and Liquibase has no heartbeat, as their rows are written', async () => {
    const store = judgedStore(
      new PostgresLockStore({ client: db.admin, source: `postgres://127.0.0.1:${db.port}/postgres` }),
    );
    // ShedLock's PostgreSQL DDL and usingDbTime() insert; Liquibase's table and its lock update
    await db.admin.query(
      `CREATE TABLE shedlock (name varchar(64) PRIMARY KEY, lock_until timestamp, locked_at timestamp, locked_by varchar(255))`,
    );
    await db.admin.query(
      `INSERT INTO shedlock VALUES ('report', timezone('utc', now()) + interval '10 minutes', timezone('utc', now()), 'app-1')`,
    );
    await db.admin.query(
      `CREATE TABLE databasechangeloglock (id int PRIMARY KEY, locked boolean NOT NULL, lockgranted timestamp, lockedby varchar(255))`,
    );
    await db.admin.query(`INSERT INTO databasechangeloglock VALUES (1, false, null, null)`);
    await db.admin.query(
      `UPDATE databasechangeloglock SET locked = true, lockgranted = now() - interval '42 minutes', lockedby = 'ci-runner-4 (10.0.0.7)' WHERE id = 1 AND locked = false`,
    );
    const shed = (await tableVerdict(store, 'public.shedlock/report'))!;
    expect(shed.verdict).toBe('unknown');
    expect(shed.sentence).toMatch(
      /^Unknown: ShedLock writes no heartbeat: the row holds until its lock_until \(in 10 min\) by its own rule; whether its owner app-1 still runs would settle it sooner\.$/,
    );
    const lb = (await tableVerdict(store, 'public.databasechangeloglock/changelog-lock-1'))!;
    expect(lb).toMatchObject({ verdict: 'unknown' });
    expect(lb.sentence).toBe(
      'Unknown: Liquibase has no heartbeat: the changelog lock was granted 42 min ago by ci-runner-4 (10.0.0.7); whether that LOCKEDBY host still runs its Liquibase process would settle it.',
    );
  }, 60_000);
});
