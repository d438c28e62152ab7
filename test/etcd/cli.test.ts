// The CLI on an etcd source with a real etcdctl lock queue: `status` shows the holder and its waiters in grant
// order, `ls --json` carries them, and a waiter's own key says why it is never released.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startEtcd, type Queued, type TestEtcd } from '../helpers/etcd';

let etcd: TestEtcd;
let queue: Queued[];
let source: string;

beforeAll(async () => {
  etcd = await startEtcd();
  source = `etcd://${etcd.endpoint}/jobs/`;
  queue = [];
  for (let i = 0; i < 3; i++) queue.push(await etcd.queue(['lock', '--ttl', '30', 'jobs/deploy']));
});
afterAll(async () => {
  await etcd?.stop();
});

describe('lockboard on an etcd source', () => {
  it('status shows the holder, then the waiters in the order etcd grants them', async () => {
    const r = await runCli(['status', source, 'deploy'], {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`identity `);
    expect(r.stdout).toMatch(new RegExp(`queue\\s+1\\. lease ${queue[1]!.lease} \\(${queue[1]!.key}\\)`));
    expect(r.stdout).toMatch(new RegExp(`\\n\\s+2\\. lease ${queue[2]!.lease} \\(${queue[2]!.key}\\)`));
  });

  it('ls --json carries the waiters with their versions', async () => {
    const r = await runCli(['ls', source, '--json'], {});
    const { locks } = JSON.parse(r.stdout) as {
      locks: { name: string; waiters: { key: string; version: string }[] }[];
    };
    expect(locks.map((l) => l.name)).toEqual(['jobs/deploy']);
    expect(locks[0]!.waiters.map((w) => w.key)).toEqual([queue[1]!.key, queue[2]!.key]);
    expect(Number(locks[0]!.waiters[0]!.version)).toBeLessThan(Number(locks[0]!.waiters[1]!.version));
  });

  it('status of a waiter’s key says it waits and is never released (13)', async () => {
    const r = await runCli(['status', source, queue[2]!.key], {});
    expect(r.code).toBe(13);
    expect(r.stdout).toMatch(/waiting for jobs\/deploy \(a waiter: never released by Lockboard\)/);
    expect(r.stdout).toMatch(/place in queue\s+2nd of 2/);
  });

  it('release of an election leader says the old leader is not told', async () => {
    await etcd.queue(['elect', 'jobs/leader', 'node-a']);
    const next = await etcd.queue(['elect', 'jobs/leader', 'node-b']);
    const status = await runCli(['status', source, 'leader', '--json'], {});
    const { version } = JSON.parse(status.stdout) as { version: string };
    const r = await runCli(
      ['release', source, 'leader', '--version', version, '--reason', 't', '--operator', 'ci'],
      {},
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Note: .*the next candidate becomes leader, and the old leader is not told/);
    await next.c.waitFor('node-b');
  });
});
