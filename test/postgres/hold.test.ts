// A hold on a ShedLock table of a real PostgreSQL: the row taken with ShedLock's own statement, locked_by naming the
// hold and lock_until its end. A ShedLock-shaped contender (its PostgreSQL provider's upsert) skips the task while the
// hold lasts and takes the row once lock_until passed; a row a live ShedLock task holds is refused naming it (11).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
  await pg.admin.query(`CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL,
    locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))`);
}, 60_000);
afterAll(() => pg?.stop());

/** ShedLock's PostgreSQL provider taking `name` for 10 s: true when it got the row (the task runs), false: skipped. */
async function shedlockContender(name: string): Promise<boolean> {
  const { rowCount } = await pg.admin.query(
    `INSERT INTO shedlock (name, lock_until, locked_at, locked_by)
     VALUES ($1, timezone('utc', now()) + interval '10 seconds', timezone('utc', now()), 'worker-1')
     ON CONFLICT (name) DO UPDATE SET lock_until = EXCLUDED.lock_until, locked_at = EXCLUDED.locked_at,
       locked_by = EXCLUDED.locked_by WHERE shedlock.lock_until <= timezone('utc', now())`,
    [name],
  );
  return rowCount === 1;
}

describe('lockboard hold on a ShedLock table', () => {
  it('refuses an advisory lock (2): session-bound, it cannot be held without a live session; nothing is taken', async () => {
    const r = await runCli(['hold', pg.url, 'advisory:42', '--reason', 'x', '--for', '1h'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('A PostgreSQL advisory lock cannot be held without a live session');
    const { rows } = await pg.admin.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`);
    expect(rows[0].n).toBe(0);
  });

  it('makes a ShedLock task skip until lock_until, naming the hold in locked_by', async () => {
    const held = await runCli(['hold', pg.url, 'public.shedlock/nightly', '--reason', 'INC-5', '--for', '6s'], {});
    expect(held.code, held.stderr).toBe(0);
    const { rows } = await pg.admin.query(
      `SELECT locked_by, extract(epoch from lock_until - locked_at) AS secs FROM shedlock WHERE name = 'nightly'`,
    );
    expect(rows[0].locked_by).toMatch(/^\S+ \(lockboard hold until \d{4}-.*Z\): INC-5$/);
    expect(Number(rows[0].secs)).toBeGreaterThan(2);
    expect(Number(rows[0].secs)).toBeLessThanOrEqual(6.01);
    expect(await shedlockContender('nightly')).toBe(false);
    const why = await runCli(['why', pg.url, 'public.shedlock/nightly'], {});
    expect(why.stdout).toMatch(/Held on purpose by \S+ · INC-5 · until .* left\)/);
    let ran = false;
    for (let i = 0; i < 120 && !ran; i++) {
      ran = await shedlockContender('nightly');
      if (!ran) await new Promise((res) => setTimeout(res, 100));
    }
    expect(ran, 'the task ran once lock_until passed').toBe(true);
  });

  it('refuses to hold a row a ShedLock task holds (11), and takes a released one', async () => {
    const r = await runCli(['hold', pg.url, 'public.shedlock/nightly', '--reason', 'x', '--for', '1h'], {});
    expect(r.code).toBe(11);
    expect(r.stderr).toContain('held by worker-1');
    await pg.admin.query(`UPDATE shedlock SET lock_until = timezone('utc', now()) WHERE name = 'nightly'`);
    const ok = await runCli(['hold', pg.url, 'public.shedlock/nightly', '--reason', 'x', '--for', '1h'], {});
    expect(ok.code, ok.stderr).toBe(0);
    expect((await runCli(['unhold', pg.url, 'public.shedlock/nightly'], {})).code).toBe(0);
    const long = await runCli(
      ['hold', pg.url, 'public.shedlock/other', '--reason', 'y'.repeat(240), '--for', '1h'],
      {},
    );
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('locked_by takes at most 255');
    expect((await pg.admin.query(`SELECT 1 FROM shedlock WHERE name = 'other'`)).rowCount).toBe(0);
  });
});
