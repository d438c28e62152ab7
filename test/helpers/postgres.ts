// Debian's PostgreSQL for tests: a cluster in a temporary directory (initdb, then postgres on a free port, as the
// `postgres` user when run as root), stopped by the test that started it. A machine without it fails with the
// command that installs it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './browser';
import { delay } from './requests';
import { copyTemplate } from './template-dir';

const BIN = process.env.LOCKBOARD_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface TestPostgres {
  url: string;
  port: number;
  /** A connection as the superuser, for setting up fixtures. */
  admin: pg.Client;
  /** A new connection (a separate session: its own backend pid). */
  connect(options?: { application_name?: string; user?: string }): Promise<pg.Client>;
  stop(): Promise<void>;
}

function asPostgres(cmd: string, args: string[]): string[] {
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', cmd, ...args] : [cmd, ...args];
}

/** Owned by the `postgres` user when run as root (initdb and postgres refuse to run as root). */
function ownDir(dir: string): void {
  if (process.getuid?.() !== 0) return;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres']).stdout);
  chownSync(dir, id('-u'), id('-g'));
}

/** `dir/data`: a fresh cluster, copied from the one initdb made once on this machine (test/helpers/template-dir.ts). */
function initCluster(dir: string): void {
  const initdb = ['-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'];
  const version = spawnSync(join(BIN, 'initdb'), ['--version'], { encoding: 'utf8' }).stdout;
  copyTemplate(`postgres ${version} ${BIN} ${initdb.join(' ')} uid ${process.getuid?.()}`, dir, (template) => {
    ownDir(template);
    const [initCmd, ...initArgs] = asPostgres(join(BIN, 'initdb'), ['-D', join(template, 'data'), ...initdb]);
    const init = spawnSync(initCmd!, initArgs, { encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  if (!existsSync(join(BIN, 'initdb'))) {
    throw new Error(
      `These tests need PostgreSQL: install it with "apt-get install -y postgresql" (initdb not found in ${BIN}; or set LOCKBOARD_PG_BIN).`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'lockboard-pg-'));
  chmodSync(dir, 0o700);
  ownDir(dir);
  initCluster(dir);
  const port = await freePort();
  const [cmd, ...args] = asPostgres(join(BIN, 'postgres'), [
    '-D',
    join(dir, 'data'),
    '-p',
    String(port),
    '-h',
    '127.0.0.1',
    '-k',
    dir,
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
  ]);
  // its own process group: runuser and postgres (and its workers) are stopped together
  const server: ChildProcess = spawn(cmd!, args, { stdio: 'ignore', detached: true });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const connect = async (o: { application_name?: string; user?: string } = {}) => {
    const client = new pg.Client({
      connectionString: o.user ? url.replace('postgres@', `${o.user}@`) : url,
      application_name: o.application_name,
    });
    client.on('error', () => {}); // a terminated session: the test asserts on it
    await client.connect();
    return client;
  };
  let admin: pg.Client | undefined;
  for (let i = 0; i < 100 && !admin; i++) {
    admin = await connect().catch(async () => {
      await delay(100);
      return undefined;
    });
  }
  if (!admin) throw new Error(`PostgreSQL did not start on port ${port}`);
  return {
    url,
    port,
    admin,
    connect,
    async stop() {
      await admin!.end().catch(() => undefined);
      const group = (signal: NodeJS.Signals) => {
        try {
          process.kill(-server.pid!, signal);
        } catch {
          // already gone
        }
      };
      group('SIGINT'); // fast shutdown: clients disconnected, no checkpoint wait
      const exited = new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
      const timer = setTimeout(() => group('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      group('SIGKILL'); // the postmaster's children, if any outlived it
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
