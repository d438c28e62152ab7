// The demo's MariaDB, when Debian's mariadb-server is installed: a server of its own in the data directory (on
// 127.0.0.1, performance_schema on, the metadata_lock_info plugin loaded), with Liquibase's changelog lock stuck for
// three hours (the BIT(1) table of Liquibase 4.20), a Flyway migration holding its named lock on a live connection
// with a second Flyway waiting behind it (retrying GET_LOCK(?, 10) as Flyway does), ShedLock rows and Laravel's
// scheduler mutex in cache_locks.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { spawnGroup } from './children';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection } from 'mysql2/promise';
import { flywayLockName } from '../lock/stores/mysql/tools';
import { sleep } from './sleep';
import type { Stopper } from './stopper';

const SERVER = '/usr/sbin/mariadbd';
const INSTALL = ['/usr/bin/mariadb-install-db', '/usr/bin/mysql_install_db'].find((p) => existsSync(p));
const AS_ROOT = process.getuid?.() === 0 ? ['--user=root'] : [];

export interface DemoMysql {
  url: string;
  loops: Promise<void>[];
  stop(): Promise<void>;
  kill(): void;
}

const FIXTURES = [
  `CREATE TABLE IF NOT EXISTS DATABASECHANGELOGLOCK (ID INT NOT NULL, LOCKED BIT(1) NOT NULL, LOCKGRANTED datetime NULL,
    LOCKEDBY VARCHAR(255) NULL, CONSTRAINT PK_DATABASECHANGELOGLOCK PRIMARY KEY (ID))`,
  `INSERT INTO DATABASECHANGELOGLOCK VALUES (1, 1, NOW() - INTERVAL 3 HOUR, 'build-agent-3 (10.20.0.14)')
    ON DUPLICATE KEY UPDATE LOCKED = 1, LOCKGRANTED = NOW() - INTERVAL 3 HOUR, LOCKEDBY = 'build-agent-3 (10.20.0.14)'`,
  `CREATE TABLE IF NOT EXISTS shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP(3) NOT NULL,
    locked_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))`,
  `REPLACE INTO shedlock VALUES ('invoice-run', TIMESTAMPADD(MINUTE, 15, UTC_TIMESTAMP(3)), UTC_TIMESTAMP(3), 'billing-7f9c'),
    ('reindex-search', TIMESTAMPADD(MINUTE, 50, UTC_TIMESTAMP(3)), TIMESTAMPADD(MINUTE, -10, UTC_TIMESTAMP(3)), 'search-2')`,
  'CREATE TABLE IF NOT EXISTS `cache_locks` (`key` varchar(255) NOT NULL, `owner` varchar(255) NOT NULL, `expiration` int NOT NULL, PRIMARY KEY (`key`))',
  // a withoutOverlapping() task whose worker died: its mutex holds for Laravel's default 24 hours
  "REPLACE INTO `cache_locks` VALUES ('laravel_cache_framework/schedule-1f3c0c5b3e4a8d2f6b7a9c0d1e2f3a4b5c6d7e8f', 'q8Zt3LmW0aPx7RkN', UNIX_TIMESTAMP() + 86000)",
];

async function startServer(dir: string, port: number): Promise<ChildProcess> {
  if (!existsSync(join(dir, 'mysql'))) {
    mkdirSync(dir, { recursive: true });
    const init = spawnSync(
      INSTALL!,
      ['--no-defaults', `--datadir=${dir}`, ...AS_ROOT, '--auth-root-authentication-method=normal', '--skip-test-db'],
      { encoding: 'utf8' },
    );
    if (init.status !== 0) throw new Error(`mariadb-install-db failed: ${(init.stderr || init.stdout).trim()}`);
  }
  return spawnGroup(
    SERVER,
    [
      '--no-defaults',
      `--datadir=${dir}`,
      ...AS_ROOT,
      '--bind-address=127.0.0.1',
      `--port=${port}`,
      `--socket=${join(dir, 'demo.sock')}`,
      '--performance-schema=ON',
      '--plugin-load-add=metadata_lock_info',
      '--skip-log-bin',
    ],
    { stdio: 'ignore' },
  );
}

/** A query that gives up when the demo stops (mysql2 never answers a query of a destroyed connection). */
function query(c: Connection, signal: AbortSignal, sql: string, values?: unknown[]) {
  return new Promise<unknown>((resolve, reject) => {
    const stop = () => reject(new Error('demo stopped'));
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    c.query(sql, values)
      .then(([rows]) => resolve(rows), reject)
      .finally(() => signal.removeEventListener('abort', stop));
  });
}

/** Flyway's wait: GET_LOCK(?, 10) again and again until it is granted, then the migration runs for a while. */
async function flyway(connect: () => Promise<Connection>, name: string, signal: AbortSignal, holdMs: number) {
  const c = await connect();
  try {
    for (;;) {
      const rows = (await query(c, signal, 'SELECT GET_LOCK(?, 10) AS got', [name])) as { got: number }[];
      if (rows[0]?.got === 1) break;
    }
    await query(c, signal, "SELECT 'applying V42__add_orders_index.sql'");
    if (!signal.aborted) await sleep(holdMs, signal); // sleep() never returns for a signal aborted before it
    await query(c, signal, 'SELECT RELEASE_LOCK(?)', [name]);
  } catch {
    // its connection was ended by an operator (the guarded KILL), or the demo stops: the next Flyway gets the lock
  } finally {
    c.destroy();
  }
}

export async function startDemoMysql(dataDir: string, port: number, stop: Stopper): Promise<DemoMysql | null> {
  if (!existsSync(SERVER) || !INSTALL) {
    console.log(
      'MySQL/MariaDB locks: MariaDB is not installed, so the demo shows none (apt-get install -y mariadb-server).',
    );
    return null;
  }
  // mysql2 is loaded only here: a demo that stops at its port check starts no faster for carrying it
  const mysql = ((await import('mysql2/promise')) as unknown as { default: typeof import('mysql2/promise') }).default;
  const server = await startServer(join(dataDir, 'mariadb'), port);
  const open = new Set<Connection>();
  const connect = () =>
    mysql.createConnection({ host: '127.0.0.1', port, user: 'root', database: 'app' }).then((c) => {
      c.on('error', () => {});
      open.add(c);
      c.once('end', () => open.delete(c));
      return c;
    });
  let admin: Connection | undefined;
  for (let i = 0; !admin; i++) {
    admin = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' }).catch(() => undefined);
    if (!admin) {
      if (i > 100 || server.exitCode !== null) throw new Error(`MariaDB did not start on port ${port}`);
      await sleep(100, stop.signal());
    }
  }
  await admin.query('CREATE DATABASE IF NOT EXISTS app');
  await admin.query('USE app');
  for (const sql of FIXTURES) await admin.query(sql);
  const name = flywayLockName('app');
  const loops = [
    (async () => {
      // one Flyway holds the lock for 20 minutes; a second waits behind it; a new one queues when either is done
      const signal = stop.signal();
      const first = flyway(connect, name, signal, 20 * 60_000);
      if (!signal.aborted) await sleep(1_000, signal);
      while (!signal.aborted) {
        await flyway(connect, name, signal, 5 * 60_000).catch(() => undefined);
        if (!signal.aborted) await sleep(30_000, signal);
      }
      await first;
    })(),
  ];
  return {
    url: `mysql://root@127.0.0.1:${port}/app`,
    loops,
    async stop() {
      for (const c of [admin!, ...open]) c.destroy(); // a Flyway blocked in GET_LOCK must not hold the stop up
      server.kill('SIGTERM');
      await Promise.race([new Promise((r) => server.once('exit', r)), new Promise((r) => setTimeout(r, 5_000))]);
    },
    kill() {
      server.kill('SIGKILL');
    },
  };
}
