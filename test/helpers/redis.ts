// Debian's redis-server for tests: one on a free port with no persistence, or a three-master cluster; each is
// stopped by the test that started it. A machine without it fails with the command that installs it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, createCluster } from 'redis';
import { freePort } from './browser';
import { delay } from './requests';

export const REDIS_SERVER = process.env.LOCKBOARD_REDIS_SERVER ?? 'redis-server';

function requireRedis(): void {
  if (spawnSync(REDIS_SERVER, ['--version']).status !== 0) {
    throw new Error(
      'These tests need Redis: install it with "apt-get install -y redis-server" (or set LOCKBOARD_REDIS_SERVER).',
    );
  }
}

async function startOne(port: number, dir: string, extra: string[] = []): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extra],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    const probe = createClient({ url: `redis://127.0.0.1:${port}` });
    probe.on('error', () => {});
    try {
      await probe.connect();
      await probe.ping();
      await probe.quit();
      return child;
    } catch {
      await delay(50);
    }
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not start on port ${port}`);
}

export type RedisTestClient = Awaited<ReturnType<typeof connect>>;

function connect(url: string) {
  return createClient({ url }).connect();
}

export interface TestRedis {
  url: string;
  port: number;
  /** The server's process (SIGSTOP pauses it: a server that stops answering). */
  pid: number;
  client: RedisTestClient;
  stop(): Promise<void>;
}

/** `extra`: more server options, e.g. ['--notify-keyspace-events', 'KEA']. */
export async function startRedis(extra: string[] = []): Promise<TestRedis> {
  requireRedis();
  const dir = mkdtempSync(join(tmpdir(), 'lockboard-redis-'));
  const port = await freePort();
  const child = await startOne(port, dir, extra);
  const url = `redis://127.0.0.1:${port}`;
  const client = await connect(url);
  return {
    url,
    port,
    pid: child.pid!,
    client,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGCONT'); // a paused server quits too
      await client.quit().catch(() => undefined);
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startRedisCluster(masters = 3) {
  requireRedis();
  const dir = mkdtempSync(join(tmpdir(), 'lockboard-redis-cluster-'));
  const ports: number[] = [];
  const children: ChildProcess[] = [];
  for (let i = 0; i < masters; i++) {
    const port = await freePort();
    const nodeDir = join(dir, String(port));
    spawnSync('mkdir', ['-p', nodeDir]);
    children.push(await startOne(port, nodeDir, ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf']));
    ports.push(port);
  }
  const create = spawnSync(
    'redis-cli',
    ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'],
    {
      encoding: 'utf8',
    },
  );
  if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
  // every node must see every slot served before a client maps the cluster
  for (let i = 0; ; i++) {
    const ok = ports.every((p) =>
      spawnSync('redis-cli', ['-p', String(p), 'cluster', 'info'], { encoding: 'utf8' }).stdout.includes(
        'cluster_state:ok',
      ),
    );
    if (ok) break;
    if (i > 200) throw new Error('the Redis cluster did not reach cluster_state:ok');
    await delay(50);
  }
  const cluster = createCluster({ rootNodes: ports.map((p) => ({ url: `redis://127.0.0.1:${p}` })) });
  cluster.on('error', () => {});
  await cluster.connect();
  return {
    cluster,
    ports,
    async stop() {
      await cluster.quit().catch(() => undefined);
      for (const c of children) c.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
