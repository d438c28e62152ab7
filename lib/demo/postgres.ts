// The demo's PostgreSQL, when Debian's PostgreSQL is installed: a cluster of its own in the data directory, with a
// migration holding Prisma's advisory lock, a ShedLock scheduler table, the seed's unique-index tables (its exact
// DDL, one row held by a live session), and Lockboard PostgreSQL jobs (one that fails, recorded with its problem;
// one whose session dies, its row shown disconnected until taken over).
import { spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { acquirePgLock, withPgLock } from '../lock/stores/postgres';
import { background } from './background';
import { signalGroup, spawnGroup } from './children';
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

/** A client of the demo's server, named in pg_stat_activity; every client it makes is kept to be ended at the stop. */
type Connect = (applicationName: string) => Promise<pg.Client>;

/** initdb into `dir` on the first run (as the postgres user when the demo runs as root). */
function initCluster(dir: string): void {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
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

function spawnPostgres(dir: string, port: number): ChildProcess {
  const flags = ['-D', dir, '-p', String(port), '-h', '127.0.0.1', '-k', dir];
  const [cmd, ...args] = asPostgres(join(BIN, 'postgres'), flags);
  return spawnGroup(cmd!, args, { stdio: 'ignore' });
}

async function waitForServer(connect: Connect, port: number, stop: Stopper): Promise<pg.Client> {
  for (let i = 0; ; i++) {
    const admin = await connect('lockboard-demo').catch(() => undefined);
    if (admin) return admin;
    if (i > 100) throw new Error(`PostgreSQL did not start on port ${port}`);
    await sleep(100, stop.signal());
  }
}

/** ShedLock's table, a migration holding Prisma's advisory lock, and the seed's tables with a row held. */
async function seed(admin: pg.Client, connect: Connect): Promise<void> {
  await admin.query(
    `CREATE TABLE IF NOT EXISTS shedlock (name varchar(64) PRIMARY KEY, lock_until timestamp, locked_at timestamp, locked_by varchar(255))`,
  );
  await admin.query(`INSERT INTO shedlock VALUES ('invoice-run', timezone('utc', now()) + interval '15 minutes', timezone('utc', now()), 'billing-7f9c')
    ON CONFLICT (name) DO UPDATE SET lock_until = EXCLUDED.lock_until, locked_at = EXCLUDED.locked_at`);
  // A schema migration (Prisma) that holds its advisory lock for minutes
  const migration = await connect('prisma-migrate');
  await migration.query('SELECT pg_advisory_lock(72707369)');
  await migration.query("SELECT 'applying 20261123_add_orders_index'");
  // The seed's own unique-index tables, exactly its DDL, with a lock row held by a live worker session
  for (const ddl of SEED_TABLES_DDL) await admin.query(ddl);
  const seedWorker = await connect('seed-worker');
  await admin.query(`DELETE FROM locks WHERE named = 'ledger-close'`);
  await seedWorker.query(SEED_TAKE, ['ledger-close']);
}

/** A nightly job that fails one run in three, and a job whose session dies while it holds its lock. */
function holders(connect: Connect, stop: Stopper): Promise<void>[] {
  let worker: pg.Client | undefined;
  let n = 0;
  const job = background('PostgreSQL job nightly-report', stop, async (signal) => {
    worker ??= await connect('lockboard-job');
    const run = n++;
    const lock = { client: worker, name: 'nightly-report', identity: 'report-runner', purpose: 'nightly report' };
    await withPgLock({ ...lock, signal }, async () => {
      await sleep(3_000, signal);
      if (run % 3 === 2) throw new Error('relation "orders_2026" does not exist');
    }).catch(() => undefined);
    await sleep(4_000, signal);
  });
  // disconnected until the next run takes the row over
  const crashing = background('PostgreSQL job cache-rebuild', stop, async (signal) => {
    const doomed = await connect('lockboard-crashing-job');
    const lock = { client: doomed, name: 'cache-rebuild', identity: 'rebuild-worker', purpose: 'rebuild', signal };
    await acquirePgLock(lock).catch(() => undefined);
    await sleep(20_000, signal);
    await doomed.end().catch(() => undefined); // its session dies; the row stays, "disconnected"
    await sleep(60_000, signal);
  });
  return [job, crashing];
}

export async function startDemoPostgres(dataDir: string, port: number, stop: Stopper): Promise<DemoPostgres | null> {
  if (!existsSync(join(BIN, 'initdb'))) {
    console.log(
      'PostgreSQL locks: PostgreSQL is not installed, so the demo shows none (apt-get install -y postgresql).',
    );
    return null;
  }
  const dir = join(dataDir, 'postgres');
  initCluster(dir);
  const server = spawnPostgres(dir, port);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const clients = new Set<pg.Client>();
  const connect: Connect = async (application_name) => {
    const c = new pg.Client({ connectionString: url, application_name });
    c.on('error', () => {});
    await c.connect();
    clients.add(c);
    c.once('end', () => clients.delete(c));
    return c;
  };
  const admin = await waitForServer(connect, port, stop).catch((err: unknown) => {
    signalGroup(server, 'SIGQUIT');
    throw err;
  });
  await seed(admin, connect);
  return {
    url,
    loops: holders(connect, stop),
    async stop() {
      // fast shutdown first (SIGINT), so a client's end() never waits on a server that is going away
      signalGroup(server, 'SIGINT');
      await Promise.race([
        Promise.allSettled([...clients].map((c) => c.end())),
        new Promise((r) => setTimeout(r, 1_000)),
      ]);
    },
    /** At once: immediate shutdown of the whole server (its own process group). */
    kill: () => signalGroup(server, 'SIGQUIT'),
  };
}
