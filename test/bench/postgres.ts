// PostgreSQL: the cost of one listing (queries, time) with 1 000 advisory locks held by 10 sessions and a 10 000-row
// ShedLock table, on a throwaway PostgreSQL 15 cluster.
import { PostgresLockStore } from '@/lib/lock/stores/postgres';
import type { Queryable } from '@/lib/lock/stores/postgres';
import { startPostgres } from '../helpers/postgres';
import { printTable, round, writeJson } from './report';

export async function benchPostgres() {
  const pg = await startPostgres();
  const sessions = await Promise.all(Array.from({ length: 10 }, () => pg.connect()));
  await Promise.all(
    sessions.map((s, i) =>
      s.query(`SELECT pg_advisory_lock(k) FROM generate_series(${i * 100 + 1}, ${i * 100 + 100}) k`),
    ),
  );
  await pg.admin.query(
    `CREATE TABLE shedlock (name varchar(64) PRIMARY KEY, lock_until timestamp, locked_at timestamp, locked_by varchar(255))`,
  );
  await pg.admin.query(
    `INSERT INTO shedlock SELECT 'task-' || g, timezone('utc', now()) + interval '1 hour', timezone('utc', now()), 'host-' || (g % 7) FROM generate_series(1, 10000) g`,
  );
  let queries = 0;
  const counted: Queryable = {
    query: (text, values) => {
      queries++;
      return pg.admin.query(text, values as unknown[]) as never;
    },
  };
  const store = new PostgresLockStore({ client: counted });
  const rows: Record<string, string | number>[] = [];
  for (const run of ['first listing', 'second listing']) {
    queries = 0;
    const started = performance.now();
    const { locks } = await store.list();
    rows.push({
      run,
      'advisory locks': locks.filter((l) => l.format === 'advisory').length,
      'table rows': locks.filter((l) => l.format === 'shedlock').length,
      queries,
      ms: round(performance.now() - started),
    });
  }
  printTable('PostgreSQL listing: 1 000 advisory locks (10 sessions) and a 10 000-row ShedLock table', rows);
  for (const s of sessions) await s.end();
  await pg.stop();
  writeJson('postgres', { rows });
  return rows;
}
