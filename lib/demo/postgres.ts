// The demo's PostgreSQL, when Debian's PostgreSQL is installed: a cluster of its own in the data directory, with a
// migration holding Prisma's advisory lock, a ShedLock scheduler table, the seed's unique-index tables (its exact
// DDL, one row held by a live session), and Lockboard PostgreSQL jobs (one that fails, recorded with its problem;
// one whose session dies, its row shown disconnected until taken over).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { acquirePgLock, withPgLock } from '../lock/stores/postgres';
import { SEED_TABLES_DDL, SEED_TAKE } from './seed-tables';
import { sleep } from './sleep';
import type { Stopper } from './stopper';

const BIN = '/usr/lib/postgresql/15/bin';

export interface DemoPostgres {
  url: string;
  loops: Promise<void>[];
  stop(): Promise<void>;
  /** Ends the server at once (a stop past its deadline). */
  kill(): void;
}

const asPostgres = (cmd: string, args: string[]) =>
  process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', cmd, ...args] : [cmd, ...args];

export async function startDemoPostgres(dataDir: string, port: number, stop: Stopper): Promise<DemoPostgres | null> {
  if (!existsSync(join(BIN, 'initdb'))) {
    console.log(
      'PostgreSQL locks: PostgreSQL is not installed, so the demo shows none (apt-get install -y postgresql).',
    );
    return null;
  }
  const dir = join(dataDir, 'postgres');
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (process.getuid?.() === 0)
      chownSync(
        dir,
        Number(spawnSync('id', ['-u', 'postgres']).stdout),
        Number(spawnSync('id', ['-g', 'postgres']).stdout),
      );
    const [cmd, ...args] = asPostgres(join(BIN, 'initdb'), ['-D', dir, '-U', 'postgres', '-A', 'trust', '--no-sync']);
    const init = spawnSync(cmd!, args, { encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr.trim()}`);
  }
  const [cmd, ...args] = asPostgres(join(BIN, 'postgres'), [
    '-D',
    dir,
    '-p',
    String(port),
    '-h',
    '127.0.0.1',
    '-k',
    dir,
  ]);
  const server: ChildProcess = spawn(cmd!, args, { stdio: 'ignore', detached: true });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const connect = async (application_name: string) => {
    const c = new pg.Client({ connectionString: url, application_name });
    c.on('error', () => {});
    await c.connect();
    return c;
  };
  let admin: pg.Client | undefined;
  for (let i = 0; !admin; i++) {
    admin = await connect('lockboard-demo').catch(() => undefined);
    if (!admin) {
      if (i > 100) throw new Error(`PostgreSQL did not start on port ${port}`);
      await sleep(100, stop.signal());
    }
  }
  await admin.query(
    `CREATE TABLE IF NOT EXISTS shedlock (name varchar(64) PRIMARY KEY, lock_until timestamp, locked_at timestamp, locked_by varchar(255))`,
  );
  await admin.query(`INSERT INTO shedlock VALUES ('invoice-run', timezone('utc', now()) + interval '15 minutes', timezone('utc', now()), 'billing-7f9c')
    ON CONFLICT (name) DO UPDATE SET lock_until = EXCLUDED.lock_until, locked_at = EXCLUDED.locked_at`);
  const clients: pg.Client[] = [admin];
  // A schema migration (Prisma) that holds its advisory lock for minutes
  const migration = await connect('prisma-migrate');
  clients.push(migration);
  await migration.query('SELECT pg_advisory_lock(72707369)');
  await migration.query("SELECT 'applying 20261123_add_orders_index'");
  // The seed's own unique-index tables, exactly its DDL, with a lock row held by a live worker session
  for (const ddl of SEED_TABLES_DDL) await admin.query(ddl);
  const seedWorker = await connect('seed-worker');
  clients.push(seedWorker);
  await admin.query(`DELETE FROM locks WHERE named = 'ledger-close'`);
  await seedWorker.query(SEED_TAKE, ['ledger-close']);
  const loops = [
    (async () => {
      const signal = stop.signal();
      const worker = await connect('lockboard-job');
      clients.push(worker);
      for (let n = 0; !signal.aborted; n++) {
        await withPgLock(
          { client: worker, name: 'nightly-report', identity: 'report-runner', purpose: 'nightly report', signal },
          async () => {
            await sleep(3_000, signal);
            if (n % 3 === 2) throw new Error('relation "orders_2026" does not exist');
          },
        ).catch(() => undefined);
        await sleep(4_000, signal);
      }
    })(),
    (async () => {
      // A job whose session dies while holding its lock: disconnected until the next run takes the row over
      const signal = stop.signal();
      while (!signal.aborted) {
        const doomed = await connect('lockboard-crashing-job');
        await acquirePgLock({
          client: doomed,
          name: 'cache-rebuild',
          identity: 'rebuild-worker',
          purpose: 'rebuild',
          signal,
        }).catch(() => undefined);
        await sleep(20_000, signal);
        await doomed.end().catch(() => undefined); // its session dies; the row stays, "disconnected"
        await sleep(60_000, signal);
      }
    })(),
  ];
  return {
    url,
    loops,
    async stop() {
      // fast shutdown first (SIGINT), so a client's end() never waits on a server that is going away
      try {
        process.kill(-server.pid!, 'SIGINT');
      } catch {
        // already gone
      }
      await Promise.race([Promise.allSettled(clients.map((c) => c.end())), new Promise((r) => setTimeout(r, 1_000))]);
    },
    /** At once: immediate shutdown of the whole server (its own process group, which Ctrl-C does not reach). */
    kill() {
      try {
        process.kill(-server.pid!, 'SIGQUIT');
      } catch {
        // already gone
      }
    },
  };
}
