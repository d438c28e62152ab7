// Row versions on a real MariaDB that survive any character in any field (#57): ShedLock, Liquibase and Laravel rows
// with "|" in every text field release exactly as seen (the "|"-joined form refused them as "changed" for ever); a
// malformed version is a usage error checked before anything is audited; the older form still releases where it is
// unambiguous (no field holds a "|").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VersionShapeError } from '@/lib/lock/store';
import { asDb, MysqlLockStore } from '@/lib/lock/stores/mysql';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';

let m: TestMariadb;
let store: MysqlLockStore;
beforeAll(async () => {
  m = await startMariadb();
  store = new MysqlLockStore({
    db: asDb(m.admin, 'mysql'),
    source: `mysql://127.0.0.1:${m.port}/app`,
    database: 'app',
  });
  await q(`CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP(3) NOT NULL,
    locked_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))`);
  await q(`CREATE TABLE cache_locks (\`key\` varchar(255) NOT NULL, \`owner\` varchar(255) NOT NULL,
    \`expiration\` int NOT NULL, PRIMARY KEY (\`key\`)) DEFAULT CHARACTER SET utf8mb4 COLLATE 'utf8mb4_unicode_ci'`);
  await q(`CREATE TABLE DATABASECHANGELOGLOCK (ID INT NOT NULL, LOCKED TINYINT(1) NOT NULL, LOCKGRANTED datetime NULL,
    LOCKEDBY VARCHAR(255) NULL, CONSTRAINT PK_DATABASECHANGELOGLOCK PRIMARY KEY (ID))`);
}, 60_000);
afterAll(() => m?.stop());

const q = async <R>(sql: string, values?: unknown[]) => (await m.admin.query(sql, values))[0] as R;
const release = (name: string, version: string) =>
  store.forceRelease({ name, version, reason: 'stuck', operator: 'ops@example.com' });
const trail = async (lock: string) =>
  (await store.readAudit(new Date(Date.now() - 600_000), new Date(Date.now() + 60_000), lock)).map((e) => e.event);
// ShedLock's usingDbTime() insert
const shedlock = (name: string, by: string) =>
  q(
    `INSERT IGNORE INTO shedlock (name, lock_until, locked_at, locked_by)
     VALUES (?, TIMESTAMPADD(MINUTE, 10, UTC_TIMESTAMP(3)), UTC_TIMESTAMP(3), ?)`,
    [name, by],
  );
const laravel = (key: string, owner: string) =>
  q('insert into `cache_locks` (`key`, `owner`, `expiration`) values (?, ?, ?)', [
    key,
    owner,
    Math.floor(Date.now() / 1000) + 86_400,
  ]);

describe('row versions with "|" in every field', () => {
  it('releases a ShedLock row whose name and locked_by hold "|", with attempt and outcome in the trail', async () => {
    await shedlock('report|daily', 'host|a (10.0.0.1|x)');
    const lock = (await store.inspect('shedlock/report|daily'))!;
    expect(JSON.parse(lock.version)).toEqual([
      'report|daily',
      'host|a (10.0.0.1|x)',
      expect.any(String),
      expect.any(String),
    ]);
    expect(lock.versionLabel).toMatch(/^row host\|a \(10\.0\.0\.1\|x\) · \d{4}-/);
    expect((await release(lock.name, lock.version)).outcome).toBe('released');
    expect(await trail(lock.name)).toEqual(['force-release-requested', 'force-released']);
    expect(await store.inspect(lock.name)).toBeNull();
  });

  it('deletes a Laravel cache lock whose key and owner hold "|", and refuses a new owner', async () => {
    await laravel('laravel_cache|framework/schedule|x', 'Ab3|E6gH9jK2mN5p');
    const seen = (await store.inspect('cache_locks/laravel_cache|framework/schedule|x'))!;
    await q('update `cache_locks` set `owner` = ?', ['Zz9|Y8xX7wW6vV5u']);
    expect((await release(seen.name, seen.version)).outcome).toBe('changed');
    const now = (await store.inspect(seen.name))!;
    expect((await release(now.name, now.version)).outcome).toBe('released');
    expect(await q<unknown[]>('SELECT 1 FROM cache_locks')).toHaveLength(0);
  });

  it('clears a Liquibase lock whose LOCKEDBY holds "|", keeping its row', async () => {
    await q(`INSERT INTO DATABASECHANGELOGLOCK VALUES (1, 1, NOW(), 'ci|runner-4 (10.0.0.7|b)')`);
    const lock = (await store.inspect('DATABASECHANGELOGLOCK/changelog-lock-1'))!;
    expect((await release(lock.name, lock.version)).outcome).toBe('released');
    expect(await q(`SELECT LOCKED, LOCKEDBY FROM DATABASECHANGELOGLOCK`)).toEqual([{ LOCKED: 0, LOCKEDBY: null }]);
  });
});

describe('malformed and older versions', () => {
  it('refuses a version of another shape before anything is audited, saying what a Laravel lock version looks like', async () => {
    await laravel('jobs|unique', 'o|1');
    const lock = (await store.inspect('cache_locks/jobs|unique'))!;
    const [key, owner, expiration] = JSON.parse(lock.version) as string[];
    const bad = [
      [key, owner, expiration].join('|'), // the "|" form: ambiguous here
      JSON.stringify([key, owner]),
      JSON.stringify([key, owner, 'soon']),
      '42.1795810045.0a1b2c3d',
    ];
    for (const version of bad) {
      const err = await release(lock.name, version).catch((e: unknown) => e);
      expect(err, version).toBeInstanceOf(VersionShapeError);
      expect((err as Error).message).toMatch(/a Laravel cache lock's version is \["KEY","OWNER","EXPIRATION"\]/);
    }
    expect(await trail(lock.name)).toEqual([]);
    expect((await release(lock.name, lock.version)).outcome).toBe('released');
  });

  it('still releases a version in the older "|" form where no field holds a "|" (a saved link)', async () => {
    await shedlock('cleanup', 'worker-2');
    const lock = (await store.inspect('shedlock/cleanup'))!;
    const old = (JSON.parse(lock.version) as string[]).join('|');
    expect((await release(lock.name, old)).outcome).toBe('released');
    expect(await trail(lock.name)).toEqual(['force-release-requested', 'force-released']);
  });

  it('refuses a row version for a named lock before auditing', async () => {
    const holder = await m.connect();
    await holder.query(`SELECT GET_LOCK('deploy|prod', 0)`);
    const lock = (await store.inspect('named:deploy|prod'))!;
    await expect(release(lock.name, '["deploy|prod","x"]')).rejects.toThrow(/a named lock's version is/);
    expect(await trail(lock.name)).toEqual([]);
    await holder.end();
  });
});
