// The lockboard command on redis:// sources, as real processes against Debian's redis-server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startRedis, type TestRedis } from '../helpers/redis';

let r: TestRedis;
let source: string;
beforeAll(async () => {
  r = await startRedis();
  source = `redis://127.0.0.1:${r.port}/0`;
  await r.client.sendCommand(['SET', 'locks:etl', 'q83vASNFZ4mrze8BI0VniQ==', 'PX', '60000']);
  await r.client.sendCommand(['SET', 'locks:bsm', 'Zm9vYmFyYmF6cXV4cXV1eAworker-2', 'PX', '60000']);
  await r.client.sendCommand(['SET', 'cache:page:1', '<html></html>']);
}, 30_000);
afterAll(() => r?.stop());

describe('lockboard on redis:// sources', () => {
  it('lists locks with a match pattern, never showing credentials, and skips non-locks', async () => {
    const ls = await runCli(['ls', `redis://:s3cret@127.0.0.1:${r.port}/0?match=locks:*`, '--json'], {});
    expect(ls.code, ls.stderr).toBe(0);
    const out = JSON.parse(ls.stdout) as {
      source: string;
      locks: { name: string; store: string; identity?: string }[];
    };
    expect(out.source).toBe(`redis://127.0.0.1:${r.port}/0?match=locks:*`);
    expect(ls.stdout).not.toContain('s3cret');
    expect(out.locks.map((l) => [l.name, l.store, l.identity ?? ''])).toEqual([
      ['locks:bsm', 'redis', 'worker-2'],
      ['locks:etl', 'redis', ''],
    ]);
    const all = JSON.parse((await runCli(['ls', source, '--json'], {})).stdout) as { skipped: number };
    expect(all.skipped).toBe(1); // the cache page
  });

  it('shows and releases one lock by its version; a stale version deletes nothing (exit 11)', async () => {
    const status = await runCli(['status', source, 'locks:etl', '--json'], {});
    expect(status.code, status.stderr).toBe(0);
    const { version } = JSON.parse(status.stdout) as { version: string };
    await r.client.sendCommand(['SET', 'locks:etl', 'ASNFZ4mrze8BI0VniQEjRQ==', 'PX', '60000']); // a successor
    const stale = await runCli(['release', source, 'locks:etl', '--version', version, '--reason', 'stuck'], {});
    expect(stale.code).toBe(11);
    expect(await r.client.sendCommand(['EXISTS', 'locks:etl'])).toBe(1);
    const now = (
      JSON.parse((await runCli(['status', source, 'locks:etl', '--json'], {})).stdout) as { version: string }
    ).version;
    const done = await runCli(['release', source, 'locks:etl', '--version', now, '--reason', 'stuck'], {});
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect((await runCli(['status', source, 'locks:etl'], {})).code).toBe(10);
  });

  it('runs a command under a Redis lock with a fencing token; --no-wait fails fast while it is held', async () => {
    const hold = runCli(
      [
        'run',
        '--source',
        source,
        'locks:deploy',
        '--ttl',
        '5s',
        '--',
        process.execPath,
        '-e',
        'setTimeout(()=>console.log(process.env.LOCKBOARD_FENCING_TOKEN),6000)',
      ],
      {},
    );
    // held once the key exists (not after a fixed sleep: a loaded machine starts processes slowly)
    for (let i = 0; i < 200 && !(await r.client.sendCommand(['EXISTS', 'locks:deploy'])); i++)
      await new Promise((res) => setTimeout(res, 50));
    const busy = await runCli(['run', '--source', source, 'locks:deploy', '--no-wait', '--', 'true'], {});
    expect(busy.code).toBe(75);
    const held = await hold;
    expect(held.code, held.stderr).toBe(0);
    expect(held.stdout.trim()).toMatch(/^\d+$/);
  });

  it('names the problem: a bad URL, a missing key name, an unreachable server', async () => {
    const bad = await runCli(['ls', 'redis://127.0.0.1:1/abc'], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/database must be a number/);
    const noName = await runCli(['status', source], {});
    expect(noName.code).toBe(2);
    expect(noName.stderr).toMatch(/names a source, not a lock: add the lock's name after it/);
    const down = await runCli(['ls', 'redis://127.0.0.1:1/0'], {});
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/Cannot reach redis:\/\/127\.0\.0\.1:1\/0/);
  });
});
