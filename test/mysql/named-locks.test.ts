// Named locks (GET_LOCK) on a real MariaDB: holders with their connections and waiters in order, from the
// metadata_lock_info plugin and from performance_schema once its mdl instrument is on; tools named by their lock
// names; the holder's statement masked for viewers; the guarded KILL that ends only the connection still holding it.
import { crc32 } from 'node:zlib';
import type { Connection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAll } from '@/lib/lock/list-all';
import { asDb, flywayLockName, maskStatement, MysqlLockStore, namedTool } from '@/lib/lock/stores/mysql';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';
import { delay } from '../helpers/requests';

let m: TestMariadb;
let store: MysqlLockStore;
const open: Connection[] = [];
beforeAll(async () => {
  m = await startMariadb();
  store = new MysqlLockStore({
    db: asDb(m.admin, 'mysql'),
    source: `mysql://127.0.0.1:${m.port}/app`,
    database: 'app',
  });
});
afterAll(async () => {
  for (const c of open) c.destroy();
  await m?.stop();
});

async function session(): Promise<{ c: Connection; id: string }> {
  const c = await m.connect();
  open.push(c);
  const [rows] = await c.query('SELECT CAST(CONNECTION_ID() AS CHAR) AS id');
  return { c, id: (rows as { id: string }[])[0]!.id };
}

async function waits(id: string) {
  for (let i = 0; i < 200; i++) {
    const [r] = await m.admin.query(
      `SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = ? AND STATE = 'User lock'`,
      [id],
    );
    if ((r as unknown[]).length) return delay(20);
    await delay(10);
  }
}

const usedBy = async (name: string) => {
  const [r] = await m.admin.query('SELECT CAST(IS_USED_LOCK(?) AS CHAR) AS id', [name]);
  return (r as { id: string | null }[])[0]!.id;
};

describe('named locks', () => {
  it('names the tools: Flyway’s hash of the history table, Rails, golang-migrate, gh-ost, Prisma', () => {
    expect(flywayLockName('app')).toBe('Flyway--320650056'); // facts-mysql.md, computed the way Flyway does
    expect(namedTool('Flyway--320650056', 'app')).toEqual({ tool: 'Flyway', about: 'app.flyway_schema_history' });
    // Rails: MIGRATOR_SALT × crc32(database); golang-migrate: crc32("db:schema_migrations") × 1486364155 as a uint32
    expect(namedTool(String(2053462845n * BigInt(crc32('app'))), 'app')?.tool).toBe('Rails migrations');
    expect(namedTool(String(2053462845n * BigInt(crc32('app'))), 'other')).toBeUndefined();
    const golang = String((BigInt(crc32('app:schema_migrations')) * 1486364155n) % 2n ** 32n);
    expect(namedTool(golang, 'app')?.tool).toBe('golang-migrate');
    expect(namedTool('gh-ost::app.users', 'app')?.tool).toBe('gh-ost');
    expect(namedTool('prisma_migrate', 'app')?.tool).toBe('Prisma Migrate');
    expect(namedTool('my-job', 'app')).toBeUndefined();
  });

  it('lists a Flyway lock with its holder connection and its waiters in order, the statement masked for viewers', async () => {
    const name = flywayLockName('app');
    const holder = await session();
    await holder.c.query("SELECT GET_LOCK(?, 10), 'secret-token' AS t", [name]);
    const w1 = await session();
    void w1.c.query(`SELECT GET_LOCK('${name}', 60) /* api_key=abc */`).catch(() => undefined);
    await waits(w1.id);
    const w2 = await session();
    void w2.c.query(`SELECT GET_LOCK('${name}', 60)`).catch(() => undefined);
    await waits(w2.id);
    const lock = (await listAll(store)).locks.find((l) => l.name === `named:${name}`)!;
    expect(lock.formatLabel).toBe('Named lock (Flyway)');
    expect(lock.format).toBe('mysql-named-lock'); // its own id, no longer PostgreSQL's `advisory`
    expect(lock.pid).toBe(holder.id);
    expect(lock.details).toContainEqual(['Command', 'Sleep']);
    expect(lock.details).toContainEqual(['Program', 'Node-MySQL-2']); // mysql2's _client_name, from performance_schema
    expect(lock.details.find(([k]) => k === 'Read from')?.[1]).toMatch(/METADATA_LOCK_INFO/);
    expect(lock.waiters!.map((w) => w.key)).toEqual([`named:${name}/waiter/${w1.id}`, `named:${name}/waiter/${w2.id}`]);
    const waiter = (await store.inspect(lock.waiters![0]!.key!))!;
    expect(waiter.releasable).toBe(false);
    expect(waiter.queuedFor).toBe(`named:${name}`);
    // the holder is idle: its last statement is not shown; a waiter's statement is masked in its own place
    expect(maskStatement(`SELECT GET_LOCK('${name}', 60) /* api_key=abc */`)).toBe('SELECT GET_LOCK(?, ?) /* ? */');
    expect(maskStatement(`SET PASSWORD = "x'y"; SELECT \`t\`.a FROM t WHERE b = 'it\\'s' # c`)).toBe(
      'SET PASSWORD ? ?; SELECT `t`.a FROM t WHERE b = ? # ?',
    );

    // a waiter is never released; the holder only while it still holds the lock
    expect(
      (await store.forceRelease({ name: waiter.name, version: waiter.version, reason: 'x', operator: 't' })).outcome,
    ).toBe('not-a-lock');
    const other = lock.version.replace(/^\d+/, w1.id);
    expect((await store.forceRelease({ name: lock.name, version: other, reason: 'x', operator: 't' })).outcome).toBe(
      'changed',
    );
    expect(await usedBy(name)).toBe(holder.id);
    const restarted = lock.version.replace(/\.(\d+)\./, (_, s: string) => `.${Number(s) - 3600}.`);
    expect(
      (await store.forceRelease({ name: lock.name, version: restarted, reason: 'x', operator: 't' })).outcome,
    ).toBe('changed');
    expect(await usedBy(name)).toBe(holder.id);

    const r = await store.forceRelease({ name: lock.name, version: lock.version, reason: 'stuck', operator: 't' });
    expect(r.outcome).toBe('released');
    for (let i = 0; i < 100 && (await usedBy(name)) !== w1.id; i++) await delay(10);
    expect(await usedBy(name)).toBe(w1.id); // the first waiter has it; nothing else was ended
    const [still] = await m.admin.query('SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = ?', [w2.id]);
    expect(still).toHaveLength(1); // the second waiter's connection is untouched
    const after = (await store.inspect(lock.name))!;
    expect(after.pid).toBe(w1.id);
    expect(after.waiters!.map((w) => w.key)).toEqual([`named:${name}/waiter/${w2.id}`]);
    const audit = await store.readAudit(new Date(Date.now() - 60_000), new Date(Date.now() + 60_000), lock.name);
    expect(audit.map((e) => e.event)).toEqual(
      expect.arrayContaining(['force-release-requested', 'force-released', 'force-release-refused']),
    );
  });

  it('reads holders and waiters from performance_schema once the mdl instrument is on', async () => {
    await m.admin.query(
      `UPDATE performance_schema.setup_instruments SET ENABLED = 'YES' WHERE NAME = 'wait/lock/metadata/sql/mdl'`,
    );
    const holder = await session();
    await holder.c.query(`SELECT GET_LOCK('gh-ost::app.users', 0)`);
    const w = await session();
    void w.c.query(`SELECT GET_LOCK('gh-ost::app.users', 60)`).catch(() => undefined);
    await waits(w.id);
    const lock = (await store.inspect('named:gh-ost::app.users'))!;
    expect(lock.details.find(([k]) => k === 'Read from')?.[1]).toMatch(/performance_schema\.metadata_locks/);
    expect(lock.formatLabel).toBe('Named lock (gh-ost)');
    expect(lock.waiters!.map((x) => x.key)).toEqual([`named:gh-ost::app.users/waiter/${w.id}`]);
    await m.admin.query(
      `UPDATE performance_schema.setup_instruments SET ENABLED = 'NO' WHERE NAME = 'wait/lock/metadata/sql/mdl'`,
    );
  });

  it('shows a holder asleep inside an open transaction as overdue', async () => {
    const s = await session();
    await s.c.query('CREATE TABLE IF NOT EXISTS jobs (id INT PRIMARY KEY)');
    await s.c.query('BEGIN');
    await s.c.query('INSERT INTO jobs VALUES (1)');
    await s.c.query(`SELECT GET_LOCK('nightly', 0)`);
    await delay(200); // InnoDB refreshes information_schema.INNODB_TRX at most every 100 ms
    const lock = (await store.inspect('named:nightly'))!;
    expect(lock.formatLabel).toBe('Named lock');
    expect(lock.details).toContainEqual(['Command', 'Sleep (inside an open transaction)']);
    expect(lock.terms.effect).toMatch(/transaction rolls back/);
  });
});
