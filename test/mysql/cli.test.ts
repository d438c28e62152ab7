// The lockboard command on mysql:// as real processes against a throwaway MariaDB: ls, status, release of a stuck
// Liquibase lock and of a Flyway named lock; run serialised on Lockboard's named lock with growing fencing tokens;
// mysql init; a password never shown.
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flywayLockName } from '@/lib/lock/stores/mysql';
import { runCli } from '../helpers/cli';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';

let m: TestMariadb;
let flyway: Connection;
const cli = (...args: string[]) => runCli(args, {});
beforeAll(async () => {
  m = await startMariadb();
  await m.admin.query(`CREATE TABLE DATABASECHANGELOGLOCK (ID INT NOT NULL, LOCKED TINYINT(1) NOT NULL,
    LOCKGRANTED datetime NULL, LOCKEDBY VARCHAR(255) NULL, CONSTRAINT PK_DATABASECHANGELOGLOCK PRIMARY KEY (ID))`);
  await m.admin.query(`INSERT INTO DATABASECHANGELOGLOCK VALUES (1, 1, NOW(), 'ci-runner-42 (10.0.3.7)')`);
  flyway = await m.connect();
  await flyway.query('SELECT GET_LOCK(?, 10)', [flywayLockName('app')]);
});
afterAll(async () => {
  flyway?.destroy();
  await m?.stop();
});

// each CLI run is a process of its own (about 1-3 s on a loaded two-core machine): the tests get the time they need
describe('lockboard on mysql://', { timeout: 120_000 }, () => {
  it('lists the named lock and the changelog lock; status shows the holder connection', async () => {
    const ls = await cli('ls', m.url);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toContain(`named:${flywayLockName('app')}`);
    expect(ls.stdout).toContain('DATABASECHANGELOGLOCK/changelog-lock-1');
    const status = await cli('status', m.url, `named:${flywayLockName('app')}`, '--json');
    expect(status.code, status.stderr).toBe(0);
    const view = JSON.parse(status.stdout) as { formatLabel: string; version: string };
    expect(view.formatLabel).toBe('Named lock (Flyway)');
  });

  it('releases the stuck Liquibase lock and the Flyway lock by their versions (0), then gone (12)', async () => {
    for (const name of ['DATABASECHANGELOGLOCK/changelog-lock-1', `named:${flywayLockName('app')}`]) {
      const { version } = JSON.parse((await cli('status', m.url, name, '--json')).stdout) as { version: string };
      const args = [
        'release',
        m.url,
        name,
        '--version',
        version,
        '--reason',
        'stuck since Friday',
        '--operator',
        'ops',
      ];
      const r = await cli(...args);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect((await cli(...args)).code).toBe(12);
    }
    await expect(flyway.query('SELECT 1')).rejects.toThrow(); // its connection was ended
  });

  it('serialises two runs on one lock (a named lock) and passes growing fencing tokens', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lockboard-mysql-')), 'runs.log');
    const body = `const fs=require('fs');const s=Date.now();setTimeout(()=>{fs.appendFileSync(${JSON.stringify(file)}, process.env.LOCKBOARD_FENCING_TOKEN+' '+s+' '+Date.now()+'\\n')},400)`;
    const run = () => cli('run', '--source', m.url, 'nightly-report', '--', process.execPath, '-e', body);
    const [a, b] = await Promise.all([run(), run()]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    const rows = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ').map(Number))
      .sort((x, y) => x[1]! - y[1]!);
    expect(rows).toHaveLength(2);
    expect(rows[1]![1]).toBeGreaterThanOrEqual(rows[0]![2]!); // never overlapped
    expect(rows[1]![0]).toBeGreaterThan(rows[0]![0]!);
    const [events] = await m.admin.query(
      `SELECT event FROM lockboard_audit WHERE \`lock\` = 'named:lockboard/nightly-report'`,
    );
    expect(events).toHaveLength(2);
  });

  it('prints the DDL for a DBA (mysql init) and never shows a password', async () => {
    const init = await cli('mysql', 'init');
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/CREATE TABLE IF NOT EXISTS lockboard_audit/);
    expect(init.stdout).toMatch(/CREATE TABLE IF NOT EXISTS lockboard_claims/);
    const bad = await cli('ls', 'mysql://root:hunter2-secret@127.0.0.1:1/app');
    expect(bad.code).toBe(3);
    expect(bad.stdout + bad.stderr).not.toContain('hunter2-secret');
    const pwd = await runCli(['ls', `mysql://root@127.0.0.1:${m.port}/app`], { MYSQL_PWD: 'wrong-password' });
    expect(pwd.code).not.toBe(0); // MYSQL_PWD is sent: root has no password here, so it is refused
    expect(pwd.stdout + pwd.stderr).not.toContain('wrong-password');
  });
});
