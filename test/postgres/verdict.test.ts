// The verdict on advisory-lock holders from real sessions (stores.md "Verdict"): a session idle in a transaction and
// one running a query are alive; a holder blocked behind another session's advisory lock is stalled; once its session
// ends the lock is no longer listed.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresLockStore } from '@/lib/lock/stores/postgres';
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
