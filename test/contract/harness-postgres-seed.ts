// The PostgreSQL seed's own unique-index tables (its exact DDL: `released.id` with no default), held by a live
// session the way the seed takes a lock; a successor is another session's row. The contract's release then has to
// move the row into `released` as the seed's `acquit` does, or PostgreSQL refuses it.
import type pg from 'pg';
import { SEED_TABLES_DDL, SEED_TAKE } from '@/lib/demo/seed-tables';
import { startPostgres } from '../helpers/postgres';
import type { Harness } from './harnesses';

export async function postgresSeedHarness(): Promise<Harness> {
  const server = await startPostgres();
  for (const ddl of SEED_TABLES_DDL) await server.admin.query(ddl);
  await server.admin.query('CREATE TABLE users (id int PRIMARY KEY, email text)');
  const sessions: pg.Client[] = [];
  const take = async () => {
    const session = await server.connect({ application_name: 'seed-worker' });
    sessions.push(session);
    await server.admin.query(`DELETE FROM locks WHERE named = 'nightly-report'`);
    await session.query(SEED_TAKE, ['nightly-report']);
  };
  return {
    kind: 'postgres',
    source: server.url,
    env: {},
    lock: 'public.locks/nightly-report',
    notALock: 'public.users/1',
    async hold() {
      await take();
      await server.admin.query(`INSERT INTO users VALUES (1, 'ada@example.com') ON CONFLICT DO NOTHING`);
    },
    successor: take,
    async history() {
      const { rows } = await server.admin.query<{ problem: string; details: string }>(
        `SELECT r.problem, r.details FROM released r WHERE r.named = 'nightly-report' AND r.locked IS NOT NULL`,
      );
      return rows.map((r) => `${r.problem}: ${r.details}`);
    },
    async stop() {
      await Promise.allSettled(sessions.map((s) => s.end()));
      await server.stop();
    },
  };
}
