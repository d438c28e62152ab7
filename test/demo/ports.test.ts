// `npm run demo` on a taken port: it names the port and the flag that moves it, starts nothing, and exits non-zero
// (before, a console already on the port answered the health check and was announced as the demo's own).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/browser';

const dir = mkdtempSync(join(tmpdir(), 'lockboard-demo-ports-'));
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

async function occupy(): Promise<number> {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  servers.push(server);
  return port;
}

function demo(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'lib/demo/index.ts', '--data-dir', dir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('npm run demo on a taken port', () => {
  it('fails loudly for the console port and for a server port, naming the port and the flag', async () => {
    const free = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => freePort()));
    const [emulator, s3, redis, pg, dynamo, kube, zk] = free.map(String);
    const others = ['--emulator-port', emulator!, '--s3-port', s3!, '--redis-port', redis!, '--pg-port', pg!];
    others.push('--kube-port', kube!, '--zookeeper-port', zk!);
    const consolePort = await occupy();
    const taken = await demo(['--port', String(consolePort), ...others, '--dynamodb-port', dynamo!]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(new RegExp(`port ${consolePort} is already in use .*--port `));
    expect(taken.stdout).not.toMatch(/demo is running/);
    const dynamoPort = await occupy();
    const console2 = String(await freePort());
    const second = await demo(['--port', console2, ...others, '--dynamodb-port', String(dynamoPort)]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`port ${dynamoPort} is already in use .*--dynamodb-port `));
  }, 30_000);
});

describe('the console output the demo prints', () => {
  it('passes on each warning and error line whole, even split across chunks, and nothing else', async () => {
    const { problemLines } = await import('@/lib/demo/console');
    const seen: string[] = [];
    const feed = problemLines((l) => seen.push(l));
    feed('▲ Next.js 16\n ✓ Ready in 1s\n[lockboard] audit trail of redis://127.0.0.1:6390/0 unread');
    feed('able: Cannot reach redis://127.0.0.1:6390/0\n(node:1) Warning: something\n');
    feed(' ⨯ Error: boom\nGET /api/locks 200\n');
    expect(seen).toEqual([
      '[lockboard] audit trail of redis://127.0.0.1:6390/0 unreadable: Cannot reach redis://127.0.0.1:6390/0',
      '(node:1) Warning: something',
      ' ⨯ Error: boom',
    ]);
  });
});
