// `npm run demo` stops on the first SIGTERM (what docker stop, systemd and CI runners send) and on Ctrl-C (SIGINT to
// its whole process group) within a few seconds, and every server it started stops with it (Redis, PostgreSQL in its
// own process group, the console).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PORT_FLAGS } from '@/lib/demo/options';
import { freePort } from '../helpers/browser';

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

async function startDemo() {
  // every port the demo takes, each a free one (a default port held by another suite's server stops the demo at once)
  const ports = {} as Record<keyof typeof PORT_FLAGS, number>;
  for (const k of Object.keys(PORT_FLAGS) as (keyof typeof PORT_FLAGS)[]) ports[k] = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'lockboard-demo-'));
  chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user and must reach its folder inside
  const args = ['run', 'demo', '--', '--data-dir', dataDir];
  for (const [k, v] of Object.entries(ports)) args.push(`--${k}`, String(v));
  const child = spawn('npm', args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  for (let i = 0; i < 1800 && !out.includes('Press Ctrl-C') && child.exitCode === null; i++)
    await new Promise((r) => setTimeout(r, 100));
  expect(out, out).toContain('Press Ctrl-C');
  return { child, ports, exited, output: () => out };
}

const hasServers = spawnSync('redis-server', ['--version']).status === 0;

describe('npm run demo', () => {
  for (const [how, signal] of [
    ['SIGTERM to the demo process', 'SIGTERM'],
    ['Ctrl-C (SIGINT to its process group)', 'SIGINT'],
  ] as const) {
    it(`stops within a few seconds on ${how}, with every server it started`, async () => {
      const demo = await startDemo();
      const servers = [demo.ports.port, demo.ports['redis-port'], demo.ports['pg-port'], demo.ports['dynamodb-port']];
      expect(await listening(demo.ports.port)).toBe(true);
      if (hasServers) expect(await listening(demo.ports['redis-port'])).toBe(true);
      const started = Date.now();
      if (signal === 'SIGINT') process.kill(-demo.child.pid!, 'SIGINT');
      else demo.child.kill('SIGTERM');
      // every server it started stops, and the demo says so (npm itself may exit before its script has finished)
      let open = servers;
      while (Date.now() - started < 10_000 && (open.length || !demo.output().includes('Stopped.'))) {
        await new Promise((r) => setTimeout(r, 200));
        open = (await Promise.all(servers.map(async (p) => ((await listening(p)) ? [p] : [])))).flat();
      }
      const tookMs = Date.now() - started;
      expect(open, demo.output()).toEqual([]);
      expect(demo.output()).toMatch(/Stopped\./);
      expect(tookMs, demo.output()).toBeLessThan(8_000);
      await demo.exited;
    }, 300_000);
  }
});
