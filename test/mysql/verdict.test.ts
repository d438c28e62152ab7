// The verdict on MySQL/MariaDB holders from a real MariaDB (stores.md "Verdict"): a named lock's holder connection
// running a statement or idle is alive (a named lock is session state, idle by design), idle inside an open
// transaction past the threshold stalled (waiting for its client), hidden from a user without PROCESS unknown
// (naming the grant); Liquibase, ShedLock and Laravel rows, which have no heartbeat, unknown saying what would
// settle them; an expired ShedLock row is free by ShedLock's rule.
import type { Connection } from 'mysql2/promise';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asDb, MysqlLockStore } from '@/lib/lock/stores/mysql';
import { namedSign } from '@/lib/lock/stores/mysql/signs';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { verdictOf, type LockVerdict } from '@/lib/lock/verdict/verdict';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';
import { delay } from '../helpers/requests';

let m: TestMariadb;
const open: Connection[] = [];
beforeAll(async () => {
  m = await startMariadb();
}, 120_000);
afterAll(async () => {
  for (const c of open) c.destroy();
  await m?.stop();
});

const q = async <R>(sql: string, values?: unknown[]) => (await m.admin.query(sql, values))[0] as R;
const storeOf = (o: { idleStalledMs?: number; db?: Connection } = {}) =>
  judgedStore(
    new MysqlLockStore({
      db: asDb(o.db ?? m.admin, 'mysql'),
      source: `mysql://127.0.0.1:${m.port}/app`,
      database: 'app',
      ...(o.idleStalledMs !== undefined ? { idleStalledMs: o.idleStalledMs } : {}),
    }),
  );

async function holder(lock: string): Promise<{ c: Connection; id: string }> {
  const c = await m.connect();
  open.push(c);
  const [rows] = await c.query('SELECT CAST(CONNECTION_ID() AS CHAR) AS id, GET_LOCK(?, 0) AS got', [lock]);
  const r = (rows as { id: string; got: number }[])[0]!;
  expect(r.got).toBe(1);
  return { c, id: r.id };
}

/** The verdict of `name` once `ok` holds, polled with a deadline. */
async function verdictWhen(
  store: ReturnType<typeof storeOf>,
  name: string,
  ok: (v: LockVerdict) => boolean,
): Promise<LockVerdict> {
  let last: LockVerdict | undefined;
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await delay(100)) {
    const view = await store.inspect(name);
    last = view ? verdictOf(view) : undefined;
    if (last && ok(last)) return last;
  }
  throw new Error(`${name}: no such verdict in time, last ${JSON.stringify(last)}`);
}

describe('named lock holders judged from their connections', () => {
  it('judges a holder running a statement alive, never "working"', async () => {
    const { c, id } = await holder('migrate-running');
    void c.query('SELECT SLEEP(30)').catch(() => undefined);
    const v = await verdictWhen(storeOf(), 'named:migrate-running', (v) => /User sleep/.test(v.sentence));
    expect(v.verdict).toBe('alive');
    expect(v.sentence).toMatch(new RegExp(`^Alive: connection ${id} \\(root@[^)]+\\) is connected: Query, User sleep`));
    expect(v.sentence).not.toMatch(/working/i);
    expect(v.evidence).toEqual([
      expect.objectContaining({ from: 'information_schema.PROCESSLIST', fact: expect.stringMatching(/Command Query/) }),
    ]);
    c.destroy();
  }, 60_000);

  it('judges a holder idle past the threshold alive while connected: a leader election idles by design', async () => {
    // a named lock is session state: its idle holder is alive while connected, as PostgreSQL's idle advisory holder
    const { c, id } = await holder('leader-idle');
    const store = storeOf({ idleStalledMs: 1500 });
    await delay(2_500);
    const v = await verdictWhen(store, 'named:leader-idle', () => true);
    expect(v.verdict).toBe('alive');
    expect(v.sentence).toMatch(
      new RegExp(
        `^Alive: connection ${id} \\(root@[^)]+\\) is connected, idle for [2-9] s \\(outside any transaction\\): a named lock is held by its session, idle between statements by design\\.$`,
      ),
    );
    expect(v.evidence[0]!.fact).toMatch(new RegExp(`^connection ${id} .*Command Sleep, Time \\d+ s`));
    c.destroy();
  }, 60_000);

  it('judges a holder idle inside an open transaction stalled past the threshold, and alive before it', async () => {
    const { c, id } = await holder('flyway-idle-tx');
    await c.query('CREATE TABLE IF NOT EXISTS app.tx_probe (id INT PRIMARY KEY) ENGINE=InnoDB');
    await c.query('START TRANSACTION');
    await c.query('INSERT INTO app.tx_probe VALUES (1)'); // INNODB_TRX lists a transaction once it touches InnoDB
    await delay(200); // InnoDB refreshes what INNODB_TRX shows at most every 100 ms
    const store = storeOf({ idleStalledMs: 1500 });
    const first = await verdictWhen(store, 'named:flyway-idle-tx', () => true);
    expect(first.verdict).toBe('alive');
    expect(first.sentence).toMatch(
      /has been idle inside an open transaction for \d+ s, waiting for its client \(stalled after 2 s\)\.$/,
    );
    const v = await verdictWhen(store, 'named:flyway-idle-tx', (v) => v.verdict === 'stalled');
    expect(v.sentence).toMatch(
      new RegExp(
        `^Stalled: connection ${id} \\(root@[^)]+\\) has been idle inside an open transaction for \\d+ s, waiting for its client\\.$`,
      ),
    );
    expect(v.evidence[0]!.fact).toMatch(/Command Sleep, Time \d+ s, State .*, inside an open transaction$/);
    c.destroy();
  }, 60_000);

  it('says unknown, naming PROCESS, when the store’s user cannot see the holder’s connection', async () => {
    await q(`CREATE USER 'viewer'@'%' IDENTIFIED BY 'viewer-pw'`);
    await q(`GRANT SELECT ON app.* TO 'viewer'@'%'`);
    const { c } = await holder('hidden-holder');
    const viewer = await mysql.createConnection({
      host: '127.0.0.1',
      port: m.port,
      user: 'viewer',
      password: 'viewer-pw',
      database: 'app',
    });
    open.push(viewer);
    const v = await verdictWhen(storeOf({ db: viewer }), 'named:hidden-holder', () => true);
    expect(v.verdict).toBe('unknown');
    expect(v.sentence).toMatch(/is hidden from this user: grant it PROCESS/);
    c.destroy();
  }, 60_000);

  it('judges a holder the process list shows as Killed gone (as MariaDB shows it while it rolls back)', () => {
    // a process-list row as read; a real KILL ends a lock holder too fast to catch in this state on a test server
    const killed = {
      id: '42',
      user: 'app',
      host: '10.0.0.7:5123',
      db: 'app',
      command: 'Killed',
      time: 3,
      timeMs: 3000,
    };
    const sign = namedSign({ ...killed, state: 'Rollback', info: null }, Date.now());
    expect([sign.points, sign.says]).toEqual([
      'gone',
      'connection 42 was killed (Command Killed): it frees its locks as it ends',
    ]);
  });

  it('lists a named lock no more once its holder connection is gone', async () => {
    const { c } = await holder('gone-holder');
    const store = storeOf();
    expect((await store.inspect('named:gone-holder'))?.verdict).toBe('alive');
    c.destroy();
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await delay(50))
      if (!(await store.inspect('named:gone-holder'))) return;
    throw new Error('the lock of a closed connection is still listed');
  }, 60_000);
});

describe('lock table rows judged by their tools’ rules', () => {
  beforeAll(async () => {
    // the tools' MySQL DDL (as in tables.test.ts) and the statements they take their locks with
    await q(`CREATE TABLE DATABASECHANGELOGLOCK (ID INT NOT NULL, LOCKED BIT(1) NOT NULL, LOCKGRANTED datetime NULL,
      LOCKEDBY VARCHAR(255) NULL, CONSTRAINT PK_DATABASECHANGELOGLOCK PRIMARY KEY (ID))`);
    await q(`INSERT INTO DATABASECHANGELOGLOCK (ID, LOCKED) VALUES (1, 0)`);
    await q(`CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP(3) NOT NULL,
      locked_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))`);
    await q(`CREATE TABLE cache_locks (\`key\` varchar(255) NOT NULL, \`owner\` varchar(255) NOT NULL,
      \`expiration\` int NOT NULL, PRIMARY KEY (\`key\`)) DEFAULT CHARACTER SET utf8mb4 COLLATE 'utf8mb4_unicode_ci'`);
  });

  it('says a Liquibase lock has no heartbeat and names what would settle it', async () => {
    await q(
      `UPDATE DATABASECHANGELOGLOCK SET LOCKED = 1, LOCKGRANTED = NOW() - INTERVAL 42 MINUTE, LOCKEDBY = ? WHERE ID = 1 AND LOCKED = 0`,
      ['build-7f9c (10.0.0.7)'],
    );
    const v = await verdictWhen(storeOf(), 'DATABASECHANGELOGLOCK/changelog-lock-1', () => true);
    expect(v.verdict).toBe('unknown');
    expect(v.sentence).toBe(
      'Unknown: Liquibase has no heartbeat: the changelog lock was granted 42 min ago by build-7f9c (10.0.0.7); whether that LOCKEDBY host still runs its Liquibase process would settle it.',
    );
    expect(v.evidence[0]).toMatchObject({ from: 'DATABASECHANGELOGLOCK (row changelog-lock-1)' });
  }, 60_000);

  it('says a held ShedLock row holds until lock_until by its rule, and frees an expired one', async () => {
    const take = (name: string, micros: number) =>
      q(
        `INSERT IGNORE INTO shedlock (name, lock_until, locked_at, locked_by)
         VALUES (?, TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(3)), UTC_TIMESTAMP(3), 'worker-1')`,
        [name, micros],
      );
    await take('report', 600_000_000);
    await take('cleanup', -1_000); // lock_until 1 ms ago: ShedLock's own rule frees it
    const v = await verdictWhen(storeOf(), 'shedlock/report', () => true);
    expect(v.verdict).toBe('unknown');
    expect(v.sentence).toMatch(
      /^Unknown: ShedLock writes no heartbeat: the row holds until its lock_until \(in 10 min\) by its own rule; whether its owner worker-1 still runs would settle it sooner\.$/,
    );
    expect(await storeOf().inspect('shedlock/cleanup')).toBeNull(); // gone by its rule: free, not a lock
  }, 60_000);

  it('says a held Laravel cache lock holds until its expiration', async () => {
    const expires = Math.floor(Date.now() / 1000) + 300;
    await q('insert into `cache_locks` (`key`, `owner`, `expiration`) values (?, ?, ?)', [
      'laravel_cache_:lock:nightly',
      'Aa1bB2cC3dD4eE5f',
      expires,
    ]);
    const v = await verdictWhen(storeOf(), 'cache_locks/laravel_cache_:lock:nightly', () => true);
    expect(v.verdict).toBe('unknown');
    expect(v.sentence).toMatch(
      /^Unknown: Laravel writes no heartbeat: the row holds until its expiration \(in \d+ (s|min)\) by its own rule/,
    );
    expect(v.evidence[0]!.fact).toMatch(/^expiration .*, owner Aa1bB2cC3dD4eE5f$/);
  }, 60_000);
});
