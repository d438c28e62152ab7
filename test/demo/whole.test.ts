// `npm run demo` as a whole, with every server it can start on this machine: every source it gives its console
// answers there (no source in error: the standalone build carries every store's driver), a server dying under it
// (ZooKeeper killed) does not end it, and one SIGTERM stops every process it started (each found by walking /proc
// from the demo's pid before the signal) and frees every port. test/e2e/demo-stop.test.ts covers Ctrl-C through npm.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole, needsBuild } from '@/lib/demo/console';
import { PORT_FLAGS } from '@/lib/demo/options';
import { freePort } from '../helpers/browser';

// every port the demo takes, each a free one (a default port another suite's server holds stops the demo at once)
const FLAGS = Object.keys(PORT_FLAGS) as (keyof typeof PORT_FLAGS)[];
type Flag = (typeof FLAGS)[number];

/** pid → [parent pid, start time, command line] of every process now running. */
function processes(): Map<number, { ppid: number; start: string; cmd: string }> {
  const out = new Map<number, { ppid: number; start: string; cmd: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      out.set(Number(name), { ppid: Number(fields[1]), start: fields[19]!, cmd });
    } catch {
      // gone while read
    }
  }
  return out;
}

/** Every descendant of `root` (children, their children, ...), as pid and start time (a reused pid is not it). */
function descendants(root: number) {
  const all = processes();
  const found: { pid: number; start: string; cmd: string }[] = [];
  const walk = (parent: number) => {
    for (const [pid, p] of all)
      if (p.ppid === parent) {
        found.push({ pid, start: p.start, cmd: p.cmd });
        walk(pid);
      }
  };
  walk(root);
  return found;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

const dataDir = mkdtempSync(join(tmpdir(), 'lockboard-demo-whole-'));
chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user and must reach its folder inside
const ports = {} as Record<Flag, number>;
let demo: ChildProcess;
let output = '';
let exited: Promise<number | null>;

beforeAll(async () => {
  if (needsBuild()) buildConsole(); // about 5 minutes on 2 cores, once
  for (const flag of FLAGS) ports[flag] = await freePort();
  const args = ['--import', 'tsx', 'lib/demo/index.ts', '--data-dir', dataDir];
  for (const [flag, port] of Object.entries(ports)) args.push(`--${flag}`, String(port));
  demo = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  demo.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  demo.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  exited = new Promise((resolve) => demo.once('exit', (code) => resolve(code)));
  for (let i = 0; i < 2400 && !output.includes('Press Ctrl-C') && demo.exitCode === null; i++)
    await new Promise((r) => setTimeout(r, 100));
  expect(output, output).toContain('Press Ctrl-C');
}, 900_000);

afterAll(() => {
  if (demo.exitCode === null) demo.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** A session cookie for the demo's operator account (the sign-in form's own POST). */
async function signIn(url: string): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const jar = csrf.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${url}/api/auth/callback/demo`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; '), origin: url },
    body: new URLSearchParams({ csrfToken, email: 'operator@demo.lockboard', password: 'operator', json: 'true' }),
  });
  return [...jar, ...res.headers.getSetCookie().map((c) => c.split(';')[0]!)].join('; ');
}

interface SourceState {
  source: string;
  complete: boolean;
  error?: { message: string; at: string };
  lastGoodRead?: string;
}

describe('npm run demo, whole', () => {
  it('has every source it configured answering in its console', async () => {
    const url = `http://127.0.0.1:${ports.port}`;
    const cookie = await signIn(url);
    let states: SourceState[] = [];
    const failing = () => states.filter((s) => !s.complete || (s.error && !(s.lastGoodRead! > s.error.at)));
    // a busy machine (two cores, other suites beside this one) may take a minute to list every source once
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && (states.length === 0 || failing().length > 0)) {
      const res = await fetch(`${url}/api/locks?source=all&limit=1`, {
        headers: { cookie },
        signal: AbortSignal.timeout(20_000),
      }).catch(() => null);
      if (res?.ok) states = ((await res.json()) as { sources: SourceState[] }).sources;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(failing(), JSON.stringify(states, null, 1)).toEqual([]);
    const kinds = new Set(states.map((s) => s.source.split(':')[0]));
    for (const started of output.matchAll(/npx lockboard (?:ls|status) '?(\w+):/g)) expect(kinds).toContain(started[1]);
    expect(output).not.toMatch(/npm install|need \w+:/);
    expect(output, 'the AWS SDK notice is silenced').not.toMatch(/AWS SDK for JavaScript|NodeVersionSupportWarning/);
  }, 180_000);

  it('survives a server dying under its holders (ZooKeeper killed)', async () => {
    const zk = descendants(demo.pid!).find((p) => p.cmd.includes('ZooKeeperServerMain'));
    if (!zk) return; // ZooKeeper is not installed here
    process.kill(zk.pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 12_000)); // the contenders' sessions time out, their loops fail and retry
    expect(demo.exitCode, output).toBeNull();
    expect((await fetch(`http://127.0.0.1:${ports.port}/api/health`)).status).toBe(200);
  }, 30_000);

  it('stops on one SIGTERM within a few seconds, leaving no process it started and no port open', async () => {
    const started = descendants(demo.pid!);
    expect(started.length).toBeGreaterThan(3);
    const signalled = Date.now();
    demo.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 15_000))]);
    const stoppedMs = Date.now() - signalled; // its own deadline is 5 s; a busy two-core machine adds seconds
    let left = started;
    for (let i = 0; i < 20 && left.length; i++) {
      const now = processes();
      left = started.filter((p) => now.get(p.pid)?.start === p.start);
      if (left.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(left.map((p) => `${p.pid} ${p.cmd}`)).toEqual([]);
    const open = [];
    for (const port of Object.values(ports)) if (await listening(port)) open.push(port);
    expect(open).toEqual([]);
    expect(code, output).toBe(0);
    console.log(`the demo stopped ${stoppedMs} ms after its SIGTERM`);
    expect(stoppedMs, output).toBeLessThan(10_000);
    expect(output).toMatch(/Stopped\./);
  }, 30_000);
});
