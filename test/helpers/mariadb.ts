// Debian's MariaDB for tests: a throwaway server per suite (a copy of what mariadb-install-db made once, then
// mariadbd on a free loopback port with performance_schema on and the metadata_lock_info plugin loaded), stopped by the
// test that started it. A machine without it fails with the command that installs it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { freePort } from './browser';
import { delay } from './requests';
import { copyTemplate } from './template-dir';

const SERVER = process.env.LOCKBOARD_MARIADBD ?? '/usr/sbin/mariadbd';
const INSTALL = ['/usr/bin/mariadb-install-db', '/usr/bin/mysql_install_db'].find((p) => existsSync(p));

export interface TestMariadb {
  /** `mysql://root@127.0.0.1:<port>/app` (root, no password). */
  url: string;
  port: number;
  database: string;
  /** A connection as root to the test database, for fixtures. */
  admin: mysql.Connection;
  /** A new connection: its own session (own connection id), as a tool's would be. */
  connect(): Promise<mysql.Connection>;
  stop(): Promise<void>;
}

/** `dir/data` and `dir/tmp`: a fresh server's, copied from what mariadb-install-db made once on this machine. */
function installDb(dir: string, asRoot: string[]): void {
  const args = ['--no-defaults', ...asRoot, '--auth-root-authentication-method=normal', '--skip-test-db'];
  const version = spawnSync(SERVER, ['--version'], { encoding: 'utf8' }).stdout;
  copyTemplate(`mariadb ${version} ${INSTALL} ${args.join(' ')}`, dir, (template) => {
    const tmp = join(template, 'tmp');
    mkdirSync(tmp);
    const init = spawnSync(INSTALL!, [...args, `--datadir=${join(template, 'data')}`, `--tmpdir=${tmp}`], {
      encoding: 'utf8',
    });
    if (init.status !== 0) throw new Error(`mariadb-install-db failed: ${init.stderr || init.stdout}`);
  });
}

export async function startMariadb(o: { extraArgs?: string[] } = {}): Promise<TestMariadb> {
  if (!existsSync(SERVER) || !INSTALL)
    throw new Error(
      `These tests need MariaDB: install it with "apt-get install -y mariadb-server" (${SERVER} or mariadb-install-db not found; or set LOCKBOARD_MARIADBD).`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'lockboard-mariadb-'));
  const asRoot = process.getuid?.() === 0 ? ['--user=root'] : [];
  // a temporary directory of its own: servers sharing /tmp at once collide on their #sql-temptable files
  const tmp = join(dir, 'tmp');
  installDb(dir, asRoot);
  const port = await freePort();
  const server: ChildProcess = spawn(
    SERVER,
    [
      '--no-defaults',
      `--datadir=${join(dir, 'data')}`,
      ...asRoot,
      '--bind-address=127.0.0.1',
      `--port=${port}`,
      `--socket=${join(dir, 'sock')}`,
      `--tmpdir=${tmp}`,
      '--performance-schema=ON',
      '--plugin-load-add=metadata_lock_info',
      '--skip-log-bin',
      '--innodb-flush-log-at-trx-commit=0',
      '--innodb-buffer-pool-size=32M',
      ...(o.extraArgs ?? []),
    ],
    { stdio: 'ignore' },
  );
  const connect = (database = 'app') =>
    mysql.createConnection({ host: '127.0.0.1', port, user: 'root', database, dateStrings: true });
  let admin: mysql.Connection | undefined;
  for (let i = 0; i < 150 && !admin && server.exitCode === null; i++) {
    admin = await mysql
      .createConnection({ host: '127.0.0.1', port, user: 'root' })
      .catch(() => delay(100).then(() => undefined));
  }
  if (!admin) throw new Error(`MariaDB did not start on port ${port}`);
  await admin.query('CREATE DATABASE IF NOT EXISTS app');
  await admin.query('USE app');
  return {
    url: `mysql://root@127.0.0.1:${port}/app`,
    port,
    database: 'app',
    admin,
    connect: () => connect(),
    async stop() {
      await admin!.end().catch(() => undefined);
      const exited = new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
