// The lockboard command on postgres:// sources, as real processes against a throwaway PostgreSQL cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(() => pg?.stop());

describe('lockboard on postgres:// sources', () => {
  it('creates its tables with postgres init, and runs a command holding a row lock with a fencing token', async () => {
    const init = await runCli(['postgres', 'init', pg.url], {});
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/tables are ready in postgres:\/\/127\.0\.0\.1:\d+\/postgres/);
    const { rows } = await pg.admin.query(`SELECT to_regclass('lockboard_locks')::text AS t`);
    expect(rows[0].t).toBe('lockboard_locks');
    const run = await runCli(
      [
        'run',
        '--source',
        pg.url,
        'nightly',
        '--',
        process.execPath,
        '-e',
        'console.log(process.env.LOCKBOARD_FENCING_TOKEN); process.exit(3)',
      ],
      {},
    );
    expect(run.code).toBe(3);
    expect(run.stdout.trim()).toMatch(/^\d+$/);
    const released = await pg.admin.query(`SELECT problem, details FROM lockboard_released WHERE name = 'nightly'`);
    expect(released.rows).toEqual([{ problem: 'ExitCode', details: 'exit code 3' }]);
  });

  it('lists an advisory lock with its holder and clears it by its version; a stale version terminates nothing', async () => {
    const holder = await pg.connect({ application_name: 'flyway' });
    await holder.query('SELECT pg_advisory_lock(77431708279161 + 123)');
    const ls = await runCli(['ls', pg.url, '--json'], {});
    expect(ls.code, ls.stderr).toBe(0);
    const lock = (
      JSON.parse(ls.stdout) as { locks: { name: string; formatLabel: string; version: string }[] }
    ).locks.find((l) => l.name.startsWith('advisory:'))!;
    expect(lock.formatLabel).toBe('Advisory lock (Flyway)');
    const [pid, us, ...rest] = lock.version.split('.');
    const stale = [pid, String(BigInt(us!) - 1n), ...rest].join('.');
    const refused = await runCli(['release', pg.url, lock.name, '--version', stale, '--reason', 'hung'], {});
    expect(refused.code).toBe(11);
    expect((await holder.query('SELECT 1 AS ok')).rows[0].ok).toBe(1);
    const done = await runCli(
      ['release', pg.url, lock.name, '--version', lock.version, '--reason', 'hung migration'],
      {},
    );
    expect(done.code, done.stdout + done.stderr).toBe(0);
    await expect(holder.query('SELECT 1')).rejects.toThrow();
  });

  it('names the problem: no database in the URL, an unreachable server, a missing subcommand', async () => {
    const bad = await runCli(['ls', 'postgres://127.0.0.1:5432/'], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/needs a host and a database/);
    const down = await runCli(['ls', 'postgres://nobody@127.0.0.1:1/db'], {});
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/Cannot reach postgres:\/\/127\.0\.0\.1:1\/db/);
    const sub = await runCli(['postgres', 'drop', pg.url], {});
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(/Unknown subcommand "drop"/);
  });
});
