// `lockboard run`'s deadline holds outside the reads (#51): a server that accepts and never answers stands for any read
// that never returns (a hung file system, a FIFO opened by mistake); `run --timeout 3s` exits by itself, and one
// SIGTERM while it waits without a timeout ends it, both within a few seconds.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../helpers/cli';

let silent: net.Server;
let port = 0;
const held: net.Socket[] = [];

beforeAll(async () => {
  silent = net.createServer((s) => held.push(s)); // reads every request, answers none
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  port = (silent.address() as net.AddressInfo).port;
});
afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((r) => silent.close(r));
});

describe('run: a deadline outside the reads', () => {
  it('run --timeout 3s against a server that never answers exits 75 by itself', async () => {
    const t0 = Date.now();
    const r = await runCli(
      ['run', '--source', `redis://127.0.0.1:${port}/0`, 'job', '--timeout', '3s', '--quiet', '--', 'true'],
      {},
    );
    const took = Date.now() - t0;
    expect(r.code, r.stderr).toBe(75);
    expect(r.stderr).toMatch(/Timed out after 3000 ms waiting for lock "job"/);
    expect(took).toBeLessThan(12_000);
    expect(held.length).toBeGreaterThan(0); // it did reach the silent server
  }, 30_000);

  it('one SIGTERM while waiting on a server that never answers ends run within a few seconds', async () => {
    const { child, done } = startCli(
      ['run', '--source', `redis://127.0.0.1:${port}/0`, 'job', '--quiet', '--', 'true'],
      {},
    );
    const deadline = Date.now() + 15_000;
    const before = held.length;
    while (held.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    child.kill('SIGTERM');
    const r = await done;
    expect(Date.now() - t0).toBeLessThan(8_000);
    expect(r.code, r.stderr).toBe(130);
  }, 30_000);
});
