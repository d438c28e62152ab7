// npm run bench -- scale-mysql (issue #49; also run by `scale`): a real MariaDB (Debian's, a throwaway instance on a
// free port with performance_schema and the metadata_lock_info plugin, stopped after). First NAMED_LOCKS named locks
// (GET_LOCK, held by 10 connections, each holding many) against the bare reads a user would run — `SELECT … FROM
// information_schema.METADATA_LOCK_INFO` plus the process list; then SHEDLOCK_ROWS ShedLock rows (its MySQL DDL; one in
// ten expired) against a bare `SELECT` of the same rows. Each: Lockboard's cold index (the judged store over one mysql2
// connection, as the registry opens it), queries sent, time (best of MYSQL_RUNS, alternating), and the index's window
// and filters, in the same run.
import os from 'node:os';
import mysql, { type Connection } from 'mysql2/promise';
import { asDb, type Db } from '@/lib/lock/stores/mysql/client';
import { MysqlLockStore } from '@/lib/lock/stores/mysql/store';
import type { LockIndex } from '@/lib/lock/query/lock-index';
import { runQuery, type LockQuery } from '@/lib/lock/query/query';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';
import { coldIndex } from './scale-stores';
import { printTable, round, writeJson } from './report';

const NAMED = Number(process.env.NAMED_LOCKS ?? 10_000);
const ROWS = Number(process.env.SHEDLOCK_ROWS ?? 100_000);
const HOLDERS = 10;
const RUNS = Number(process.env.MYSQL_RUNS ?? 3);
const SETTINGS = {
  host: '127.0.0.1',
  user: 'root',
  dateStrings: true,
  supportBigNumbers: true,
  bigNumberStrings: true,
};

/** The bare reads, timed; `statements` of them. */
async function bare(admin: Connection, statements: string[]) {
  const started = performance.now();
  let rows = 0;
  for (const s of statements) rows += ((await admin.query(s))[0] as unknown[]).length;
  return { ms: performance.now() - started, calls: statements.length, rows };
}

function counted(db: Db): { db: Db; queries: () => number } {
  let n = 0;
  return {
    db: { rows: (sql, v) => (n++, db.rows(sql, v)), run: (sql, v) => (n++, db.run(sql, v)) },
    queries: () => n,
  };
}

function queries(index: LockIndex, id: string, text: string) {
  const q = (o: Partial<LockQuery>) => {
    const started = performance.now();
    const src = [{ id, rows: index.rows.values(), counts: index.counts, verdicts: index.verdicts, size: index.size }];
    runQuery(src, { sort: 'name', order: 'asc', limit: 100, ...o });
    return round(performance.now() - started);
  };
  return {
    'window ms': q({}),
    'filter ms': q({ q: text }),
    'sort expires ms': q({ sort: 'expires', order: 'desc' }),
    'verdict=gone ms': q({ verdict: 'gone' }),
  };
}

/** Lockboard's cold index of the database against the bare reads, alternating, best of RUNS each, in one line. */
async function line(m: TestMariadb, what: string, baseline: string[], text: string) {
  // the store's own pool settings (client.ts)
  const conn = await mysql.createConnection({ ...SETTINGS, port: m.port, database: m.database });
  try {
    const bares: Awaited<ReturnType<typeof bare>>[] = [];
    const colds: { x: Awaited<ReturnType<typeof coldIndex>>; queries: number; source: string }[] = [];
    for (let i = 0; i < RUNS; i++) {
      bares.push(await bare(m.admin, baseline));
      const c = counted(asDb(conn, m.url));
      const store = judgedStore(new MysqlLockStore({ db: c.db, source: m.url, database: m.database }));
      colds.push({ x: await coldIndex(store), queries: c.queries(), source: store.source });
    }
    const b = bares.reduce((a, r) => (r.ms < a.ms ? r : a));
    const { x, queries: sent, source } = colds.reduce((a, r) => (r.x.ms < a.x.ms ? r : a));
    const row = {
      what,
      locks: x.index.size,
      'bare rows': b.rows,
      'bare s': round(b.ms / 1000, 2),
      'bare queries': b.calls,
      'cold index s': round(x.ms / 1000, 2),
      ratio: round(x.ms / b.ms, 2),
      queries: sent,
      'first page ms': round(x.firstPageMs),
      ...queries(x.index, source, text),
      verdicts: JSON.stringify(x.index.verdicts),
    };
    console.log(row);
    return row;
  } finally {
    await conn.end();
  }
}

async function holdNamedLocks(m: TestMariadb): Promise<Connection[]> {
  const holders = await Promise.all(Array.from({ length: HOLDERS }, () => m.connect()));
  const each = Math.ceil(NAMED / HOLDERS);
  await Promise.all(
    holders.map((h, i) =>
      h.query(`SELECT COUNT(GET_LOCK(CONCAT('flyway-job-', seq), 0)) FROM seq_${i * each + 1}_to_${(i + 1) * each}`),
    ),
  );
  return holders;
}

async function fillShedlock(m: TestMariadb): Promise<void> {
  await m.admin.query(`CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP(3) NOT NULL,
    locked_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))`);
  await m.admin.query(`INSERT INTO shedlock SELECT CONCAT('task-', LPAD(seq, 7, '0')),
    IF(seq % 10 = 0, UTC_TIMESTAMP(3) - INTERVAL 1 MINUTE, UTC_TIMESTAMP(3) + INTERVAL 1 HOUR),
    UTC_TIMESTAMP(3) - INTERVAL 2 MINUTE, CONCAT('host-', seq % 7) FROM seq_1_to_${ROWS}`);
}

export async function benchScaleMysql(): Promise<Record<string, string | number>[]> {
  const load = os
    .loadavg()
    .map((l) => round(l, 2))
    .join(' ');
  const m = await startMariadb();
  const rows: Record<string, string | number>[] = [];
  try {
    const holders = await holdNamedLocks(m);
    const mli = `SELECT * FROM information_schema.METADATA_LOCK_INFO WHERE LOCK_TYPE = 'User lock'`;
    rows.push(await line(m, `${NAMED} named locks`, [mli, 'SELECT * FROM information_schema.PROCESSLIST'], 'job-4242'));
    await Promise.all(holders.map((h) => h.end()));
    await fillShedlock(m);
    const select = 'SELECT name, lock_until, locked_at, locked_by FROM shedlock';
    rows.push(await line(m, `${ROWS} ShedLock rows`, [select], 'task-0004242'));
  } finally {
    await m.stop();
  }
  const end = os
    .loadavg()
    .map((l) => round(l, 2))
    .join(' ');
  return rows.map((r) => ({ ...r, load: `${load} → ${end}` }));
}

export async function benchMysql() {
  const rows = await benchScaleMysql();
  printTable('Scale: MySQL/MariaDB (MariaDB 10.11), the console index vs a bare SELECT', rows);
  writeJson('scale-mysql', { rows });
}
