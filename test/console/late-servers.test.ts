// Issue #62: the console started on sources whose servers are down, the servers brought up late, one flapped. The
// console's own start-up runs (every store opened in the background, each source's watcher and feed prepared) and its
// routes answer throughout: /api/health within 1 s of every 200 ms ask, never an uncaught exception or unhandled
// rejection, each source unreachable while its server is down and listed once it is up. ZooKeeper (its client threw
// "Unknown code" from its socket handler on a server still starting) with Redis and etcd, whose clients behave.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZooKeeperServer, type ZooKeeperServer } from '@/lib/demo/zookeeper-server';
import { freePort } from '../helpers/browser';
import { requireEtcd, ETCD } from '../helpers/etcd';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';

const OPERATOR = 'ops@example.com';
const faults: string[] = [];
const noteFault = (kind: string) => (err: unknown) => faults.push(`${kind}: ${(err as Error)?.stack ?? String(err)}`);
const onUncaught = noteFault('uncaughtException');
const onUnhandled = noteFault('unhandledRejection');
let routes: Routes;
let ports: { zk: number; redis: number; etcd: number };
let zk: ZooKeeperServer | undefined;
const children: ChildProcess[] = [];
const dirs: string[] = [];

/** A server process on its port (killed after the test). */
function serve(bin: string, args: string[]): void {
  children.push(spawn(bin, args, { stdio: 'ignore' }));
}

function startRedis(port: number): void {
  serve('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
}

function startEtcd(port: number): void {
  const dir = mkdtempSync(join(tmpdir(), 'lockboard-late-etcd-'));
  dirs.push(dir);
  const client = `http://127.0.0.1:${port}`;
  const peer = `http://127.0.0.1:${port + 1}`;
  serve(ETCD, [
    ...['--name', 'late', '--data-dir', join(dir, 'data'), '--listen-client-urls', client],
    ...['--advertise-client-urls', client, '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer],
    ...['--initial-cluster', `late=${peer}`, '--log-level', 'error'],
  ]);
}

/** Each source's error in the console's listing (undefined: listed since it last failed); every source failed: a 503. */
async function sourceErrors(): Promise<Record<string, string | undefined>> {
  const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
  if (res.status === 503) return { all: res.text };
  expect(res.status, res.text).toBe(200);
  const states = res.json.sources as {
    source: string;
    error?: { message: string; at: string };
    lastGoodRead?: string;
  }[];
  const failing = (st: (typeof states)[number]) => st.error && !(st.lastGoodRead && st.lastGoodRead > st.error.at);
  return Object.fromEntries(states.map((st) => [st.source, failing(st) ? st.error!.message : undefined]));
}

async function until(what: string, ok: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${ms / 1000} s (${JSON.stringify(await sourceErrors())})`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** /api/health asked every 200 ms; the slowest answer, counted from when it was due (a blocked loop counts). */
function watchHealth(): { stop(): number } {
  let worst = 0;
  let due = performance.now() + 200;
  let stopped = false;
  const ask = async () => {
    if (stopped) return;
    const res = await routes.health.GET();
    expect(res.status).toBe(200);
    worst = Math.max(worst, performance.now() - due);
    due = performance.now() + 200;
    setTimeout(() => void ask(), 200);
  };
  setTimeout(() => void ask(), 200);
  return { stop: () => ((stopped = true), worst) };
}

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUnhandled);
  requireEtcd();
  ports = { zk: await freePort(), redis: await freePort(), etcd: await freePort() };
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: [
      `zookeeper://127.0.0.1:${ports.zk}/`,
      `redis://127.0.0.1:${ports.redis}/0`,
      `etcd://127.0.0.1:${ports.etcd}/`,
    ].join(','),
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = { ...(await importRoutes()), health: await import('@/app/api/health/route') } as Routes;
  await import('@/lib/server/process/startup'); // the console's start-up: every store opened in the background
}, 60_000);

afterAll(async () => {
  process.removeListener('uncaughtException', onUncaught);
  process.removeListener('unhandledRejection', onUnhandled);
  for (const c of children) c.kill('SIGKILL');
  await zk?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a console whose servers come up late', () => {
  it('answers throughout, shows each source unreachable until its server is up, and survives a flap', async () => {
    const health = watchHealth();
    await until('every source unreachable', async () => {
      const down = await sourceErrors();
      return /Cannot reach zookeeper:.*Cannot reach redis:.*Cannot reach etcd:/.test(down.all ?? '');
    });
    startRedis(ports.redis);
    startEtcd(ports.etcd);
    zk = await startZooKeeperServer(ports.zk);
    await until('every source listed', async () => Object.values(await sourceErrors()).every((e) => !e));
    await zk.stop(); // the flap: ZooKeeper stopped and started again, with no data (the old session is refused)
    const zkId = `zookeeper://127.0.0.1:${ports.zk}/`;
    await until('ZooKeeper unreachable', async () => /^Cannot reach/.test((await sourceErrors())[zkId] ?? ''));
    zk = await startZooKeeperServer(ports.zk);
    await until('every source listed again', async () => Object.values(await sourceErrors()).every((e) => !e));
    expect(health.stop()).toBeLessThan(1_000);
    expect(faults).toEqual([]);
  }, 180_000);
});
