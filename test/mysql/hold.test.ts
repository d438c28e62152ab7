// A hold on a ShedLock table of a real MariaDB: the row taken with ShedLock's MySQL statements, locked_by naming the
// hold and lock_until its end (UTC). A ShedLock-shaped contender skips the task while the hold lasts and runs it once
// lock_until passed; a row a live task holds is refused naming it (11).
import type { ResultSetHeader, RowDataPacket } from 'mysql2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';

let m: TestMariadb;
beforeAll(async () => {
  m = await startMariadb();
  await m.admin.query(`CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP(3) NOT NULL,
    locked_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))`);
}, 90_000);
afterAll(() => m?.stop());

/** ShedLock's MySQL provider taking `name` for 10 s: true when the task runs, false when it skips. */
async function shedlockContender(name: string): Promise<boolean> {
  const until = 'DATE_ADD(UTC_TIMESTAMP(3), INTERVAL 10 SECOND)';
  const [ins] = await m.admin.query<ResultSetHeader>(
    `INSERT IGNORE INTO shedlock (name, lock_until, locked_at, locked_by) VALUES (?, ${until}, UTC_TIMESTAMP(3), 'worker-1')`,
    [name],
  );
  if (ins.affectedRows === 1) return true;
  const [upd] = await m.admin.query<ResultSetHeader>(
    `UPDATE shedlock SET lock_until = ${until}, locked_at = UTC_TIMESTAMP(3), locked_by = 'worker-1'
     WHERE name = ? AND lock_until <= UTC_TIMESTAMP(3)`,
    [name],
  );
  return upd.affectedRows === 1;
}

describe('lockboard hold on a MySQL/MariaDB ShedLock table', () => {
  it('refuses a named lock (2): session-bound, it cannot be held without a live session; nothing is taken', async () => {
    const r = await runCli(['hold', m.url, 'named:deploy', '--reason', 'x', '--for', '1h'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('A MySQL named lock (GET_LOCK) cannot be held without a live session');
    const [rows] = await m.admin.query<RowDataPacket[]>(`SELECT IS_USED_LOCK('deploy') AS holder`);
    expect(rows[0]!.holder).toBeNull();
  });

  it('makes a ShedLock task skip until lock_until, naming the hold in locked_by', async () => {
    const held = await runCli(['hold', m.url, 'shedlock/report', '--reason', 'INC-8', '--for', '6s'], {});
    expect(held.code, held.stderr).toBe(0);
    const [rows] = await m.admin.query<RowDataPacket[]>(
      `SELECT locked_by, TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(3), lock_until) / 1e6 AS secs FROM shedlock WHERE name = 'report'`,
    );
    expect(rows[0]!.locked_by).toMatch(/^\S+ \(lockboard hold until \d{4}-.*Z\): INC-8$/);
    expect(Number(rows[0]!.secs)).toBeGreaterThan(0);
    expect(Number(rows[0]!.secs)).toBeLessThanOrEqual(6.01);
    expect(await shedlockContender('report')).toBe(false);
    let ran = false;
    for (let i = 0; i < 120 && !ran; i++) {
      ran = await shedlockContender('report');
      if (!ran) await new Promise((res) => setTimeout(res, 100));
    }
    expect(ran, 'the task ran once lock_until passed').toBe(true);
  });

  it('refuses to hold a row a ShedLock task holds (11); ends its own hold with unhold (0)', async () => {
    const r = await runCli(['hold', m.url, 'shedlock/report', '--reason', 'x', '--for', '1h'], {});
    expect(r.code).toBe(11);
    expect(r.stderr).toContain('held by worker-1');
    const own = await runCli(['hold', m.url, 'shedlock/backup', '--reason', 'disk swap', '--for', '1h'], {});
    expect(own.code, own.stderr).toBe(0);
    const why = await runCli(['why', m.url, 'shedlock/backup'], {});
    expect(why.stdout).toMatch(/Held on purpose by \S+ · disk swap · until .* left\)/);
    expect(await shedlockContender('backup')).toBe(false);
    const end = await runCli(['unhold', m.url, 'shedlock/backup'], {});
    expect(end.code, end.stderr).toBe(0);
    expect(await shedlockContender('backup')).toBe(true);
  });
});
