// Lock tables on a real MariaDB, in each tool's exact MySQL DDL and written with its own statements
// (facts-mysql.md §2.3): Liquibase's changelog lock in the three LOCKED types its versions created, ShedLock with
// usingDbTime(), Laravel's cache_locks, Quartz's QRTZ_LOCKS (read-only). Each release changes exactly the row as read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAll } from '@/lib/lock/list-all';
import { asDb, MysqlLockStore } from '@/lib/lock/stores/mysql';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';
import { delay } from '../helpers/requests';

let m: TestMariadb;
let store: MysqlLockStore;
beforeAll(async () => {
  m = await startMariadb();
  store = new MysqlLockStore({
    db: asDb(m.admin, 'mysql'),
    source: `mysql://127.0.0.1:${m.port}/app`,
    database: 'app',
  });
});
afterAll(() => m?.stop());

const q = async <R>(sql: string, values?: unknown[]) => (await m.admin.query(sql, values))[0] as R;
const release = (name: string, version: string) =>
  store.forceRelease({ name, version, reason: 'stuck', operator: 'ops@example.com' });

// Liquibase's CreateDatabaseChangeLogLockTableGenerator on MySQL, by the version that created the table
const liquibase = (table: string, type: string) =>
  `CREATE TABLE ${table} (ID INT NOT NULL, LOCKED ${type} NOT NULL, LOCKGRANTED datetime NULL, LOCKEDBY VARCHAR(255) NULL, CONSTRAINT PK_${table} PRIMARY KEY (ID))`;
const TAKE = (table: string) =>
  `UPDATE ${table} SET LOCKED = 1, LOCKGRANTED = NOW(), LOCKEDBY = ? WHERE ID = 1 AND LOCKED = 0`;

// as the server shows the column type, and the Liquibase versions that create it
const LOCKED_SHOWN: Record<string, RegExp> = {
  'BIT(1)': /^BIT\(1\) \(created by Liquibase 3/,
  TINYINT: /^TINYINT\(4\) \(Liquibase 4\.29/,
  'TINYINT(1)': /^TINYINT\(1\) \(Liquibase 5/,
};

describe('Liquibase DATABASECHANGELOGLOCK', () => {
  it.each([
    ['BIT(1)', 'DATABASECHANGELOGLOCK'],
    ['TINYINT', 'LB429_DATABASECHANGELOGLOCK'],
    ['TINYINT(1)', 'LB5_DATABASECHANGELOGLOCK'],
  ])('clears a stuck lock (LOCKED %s) and keeps its row with LOCKED = 0', async (type, table) => {
    await q(liquibase(table, type));
    await q(`INSERT INTO ${table} (ID, LOCKED) VALUES (1, 0)`);
    await q(TAKE(table), ['build-7f9c (10.1.2.3)']);
    const lock = (await listAll(store)).locks.find((l) => l.name === `${table}/changelog-lock-1`)!;
    expect(lock.formatLabel).toBe('Liquibase changelog lock');
    expect(lock.identity).toBe('build-7f9c (10.1.2.3)');
    expect(lock.details.find(([k]) => k === 'LOCKED column')?.[1]).toMatch(LOCKED_SHOWN[type]!);
    expect((await release(lock.name, lock.version)).outcome).toBe('released');
    const rows = await q<{ LOCKED: unknown; LOCKEDBY: unknown }[]>(
      `SELECT CAST(LOCKED AS UNSIGNED) AS LOCKED, LOCKEDBY FROM ${table}`,
    );
    expect(rows).toEqual([{ LOCKED: 0, LOCKEDBY: null }]); // the row Liquibase needs is kept
    expect(await store.inspect(lock.name)).toBeNull();
    expect((await release(lock.name, lock.version)).outcome).toBe('gone');
  });

  it('refuses a lock taken again since it was read (another host, or the same host a second later)', async () => {
    const table = 'DATABASECHANGELOGLOCK';
    await q(TAKE(table), ['build-7f9c (10.1.2.3)']);
    const seen = (await store.inspect(`${table}/changelog-lock-1`))!;
    // Liquibase's own (unconditional) release, then a new migration takes it
    await q(`UPDATE ${table} SET LOCKED = 0, LOCKGRANTED = NULL, LOCKEDBY = NULL WHERE ID = 1`);
    await delay(1_100); // LOCKGRANTED is DATETIME: one-second resolution
    await q(TAKE(table), ['build-7f9c (10.1.2.3)']);
    const r = await release(seen.name, seen.version);
    expect(r.outcome).toBe('changed');
    expect(r.current?.version).not.toBe(seen.version);
    const [row] = await q<{ l: number }[]>(`SELECT CAST(LOCKED AS UNSIGNED) AS l FROM ${table}`);
    expect(row!.l).toBe(1);
  });
});

describe('ShedLock, Laravel, Quartz', () => {
  beforeAll(async () => {
    // ShedLock's README DDL for MySQL/MariaDB; Laravel's default cache migration; Quartz's tables_mysql_innodb.sql
    await q(`CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP(3) NOT NULL,
      locked_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))`);
    await q(`CREATE TABLE cache_locks (\`key\` varchar(255) NOT NULL, \`owner\` varchar(255) NOT NULL,
      \`expiration\` int NOT NULL, PRIMARY KEY (\`key\`)) DEFAULT CHARACTER SET utf8mb4 COLLATE 'utf8mb4_unicode_ci'`);
    await q(`CREATE TABLE QRTZ_LOCKS (SCHED_NAME VARCHAR(120) NOT NULL, LOCK_NAME VARCHAR(40) NOT NULL,
      PRIMARY KEY (SCHED_NAME, LOCK_NAME)) ENGINE=InnoDB`);
    await q(`CREATE TABLE QRTZ_SCHEDULER_STATE (SCHED_NAME VARCHAR(120) NOT NULL, INSTANCE_NAME VARCHAR(190) NOT NULL,
      LAST_CHECKIN_TIME BIGINT(13) NOT NULL, CHECKIN_INTERVAL BIGINT(13) NOT NULL, PRIMARY KEY (SCHED_NAME, INSTANCE_NAME)) ENGINE=InnoDB`);
  });

  // MySqlServerTimeStatementsSource (usingDbTime): lock_until = now + lockAtMostFor, on the database's UTC clock
  const shedlock = (name: string, micros: number, by: string) =>
    q(
      `INSERT IGNORE INTO shedlock (name, lock_until, locked_at, locked_by)
       VALUES (?, TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(3)), UTC_TIMESTAMP(3), ?)`,
      [name, micros, by],
    );

  it('lists a held ShedLock row by its lock_until, skips an expired one, and releases as ShedLock unlocks', async () => {
    await shedlock('report', 600_000_000, 'worker-1');
    await shedlock('cleanup', 1_000, 'worker-2');
    await delay(20);
    const page = await listAll(store);
    const lock = page.locks.find((l) => l.name === 'shedlock/report')!;
    expect(page.locks.some((l) => l.name === 'shedlock/cleanup')).toBe(false);
    expect(lock.health).toBe('healthy');
    expect(Date.parse(lock.expiresAt!) - store.now()).toBeGreaterThan(500_000);
    // ShedLock's extend by the same worker changes lock_until: the version seen is refused
    await q(`UPDATE shedlock SET lock_until = TIMESTAMPADD(SECOND, 700, UTC_TIMESTAMP(3)) WHERE name = 'report'`);
    expect((await release(lock.name, lock.version)).outcome).toBe('changed');
    const now = (await store.inspect(lock.name))!;
    expect((await release(now.name, now.version)).outcome).toBe('released');
    expect(await store.inspect(lock.name)).toBeNull();
    expect(await q<unknown[]>(`SELECT 1 FROM shedlock WHERE name = 'report'`)).toHaveLength(1); // the row is kept
  });

  it('pages a ShedLock table past one page of rows (5 000), every held row listed once', async () => {
    const rows = 5_300;
    for (let i = 0; i < rows; i += 1_000) {
      const names = Array.from(
        { length: Math.min(1_000, rows - i) },
        (_, k) => `paged-${String(i + k).padStart(5, '0')}`,
      );
      await q(
        `INSERT INTO shedlock (name, lock_until, locked_at, locked_by) VALUES ${names.map(() => '(?, TIMESTAMPADD(HOUR, 1, UTC_TIMESTAMP(3)), UTC_TIMESTAMP(3), ?)').join(', ')}`,
        names.flatMap((n) => [n, 'pager']),
      );
    }
    const listed = (await listAll(store)).locks.filter((l) => l.name.startsWith('shedlock/paged-'));
    expect(listed).toHaveLength(rows);
    expect(new Set(listed.map((l) => l.name)).size).toBe(rows);
    await q(`DELETE FROM shedlock WHERE name LIKE 'paged-%'`);
  }, 120_000);

  it('lists a Laravel cache lock by its expiration and deletes it as its release does, owner and expiration pinned', async () => {
    const key = 'laravel_cache_framework/schedule-6f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c';
    await q('insert into `cache_locks` (`key`, `owner`, `expiration`) values (?, ?, ?)', [
      key,
      'Ab3dE6gH9jK2mN5p',
      Math.floor(Date.now() / 1000) + 86_400,
    ]);
    const lock = (await store.inspect(`cache_locks/${key}`))!;
    expect(lock.formatLabel).toBe('Laravel cache lock');
    expect(lock.identity).toBe('Ab3dE6gH9jK2mN5p');
    // another process's Cache::lock() after expiry: a new owner
    await q('update `cache_locks` set `owner` = ? where `key` = ?', ['Zz9yY8xX7wW6vV5u', key]);
    expect((await release(lock.name, lock.version)).outcome).toBe('changed');
    const now = (await store.inspect(lock.name))!;
    expect((await release(now.name, now.version)).outcome).toBe('released');
    expect(await q<unknown[]>('SELECT 1 FROM cache_locks')).toHaveLength(0);
  });

  it('shows Quartz’s lock rows read-only, with its instances’ check-ins, and never releases them', async () => {
    await q(`INSERT INTO QRTZ_LOCKS VALUES ('QuartzScheduler', 'TRIGGER_ACCESS'), ('QuartzScheduler', 'STATE_ACCESS')`);
    await q(`INSERT INTO QRTZ_SCHEDULER_STATE VALUES ('QuartzScheduler', 'node-a1700000000000', ?, 7500)`, [
      Date.now(),
    ]);
    const lock = (await store.inspect('QRTZ_LOCKS/QuartzScheduler/TRIGGER_ACCESS'))!;
    expect(lock.releasable).toBe(false);
    expect(lock.format).toBe('quartz'); // its own id, no longer the object stores' `plain`
    expect(lock.note).toMatch(/Read-only: Quartz holds this row with SELECT … FOR UPDATE/);
    expect(lock.details.some(([k]) => k === 'Instance node-a1700000000000')).toBe(true);
    expect((await release(lock.name, lock.version)).outcome).toBe('not-a-lock');
    expect((await store.inspect('users/1')) ?? null).toBeNull(); // no such table: nothing there
  });
});
