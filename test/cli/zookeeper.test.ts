// The lockboard command on zookeeper:// sources, as real processes against Debian's ZooKeeper with real Curator and
// kazoo contenders: a leader election, and a layout an election shares, are released only with --accept-two-leaders;
// `run` queues with kazoo.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperServer } from '@/lib/demo/zookeeper-server';
import { runCli, startCli } from '../helpers/cli';
import { curator, kazoo, startZooKeeper, type RecipeDriver } from '../helpers/zookeeper';

let server: ZooKeeperServer;
let c: RecipeDriver;
let k: RecipeDriver;
let source: string;
beforeAll(async () => {
  server = await startZooKeeper();
  source = `zookeeper://${server.hosts}/svc`;
  c = curator(server.hosts);
  k = kazoo(server.hosts);
  await c.start('A', 'latch', '/svc/api/latch', 'api-A');
  await c.start('B', 'latch', '/svc/api/latch', 'api-B');
}, 30_000);
afterAll(async () => {
  await Promise.all([c?.stop(), k?.stop()]);
  await server?.stop();
});

describe('lockboard on zookeeper:// sources', () => {
  it('releases a LeaderLatch leader only with --accept-two-leaders, never showing credentials', async () => {
    const status = await runCli(['status', `zk://ops:s3cret@${server.hosts}/svc`, '/svc/api/latch', '--json'], {});
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).not.toContain('s3cret');
    const view = JSON.parse(status.stdout) as { version: string; identity: string; waiters: { identity: string }[] };
    expect(view.identity).toBe('api-A');
    expect(view.waiters.map((w) => w.identity)).toEqual(['api-B']);
    const args = ['release', source, '/svc/api/latch', '--version', view.version, '--reason', 'failover drill'];
    const refused = await runCli(args, {});
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/leader election.*--accept-two-leaders/);
    expect(refused.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    const released = await runCli([...args, '--accept-two-leaders'], {});
    expect(released.code, released.stdout + released.stderr).toBe(0);
    const now = JSON.parse((await runCli(['status', source, '/svc/api/latch', '--json'], {})).stdout) as {
      identity: string;
    };
    expect(now.identity).toBe('api-B');
  });

  it('asks the same flag for an id-less LeaderSelector, whose layout is an InterProcessMutex’s, saying so', async () => {
    for (const id of ['S1', 'S2']) await c.start(id, 'selector', '/svc/jobs/compactor', '');
    const status = await runCli(['status', source, '/svc/jobs/compactor', '--json'], {});
    const view = JSON.parse(status.stdout) as { version: string; format: string };
    expect(view.format).toBe('curator-mutex');
    const args = ['release', source, '/svc/jobs/compactor', '--version', view.version, '--reason', 'stuck compactor'];
    const refused = await runCli(args, {});
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /may be a Curator LeaderSelector leader.*exactly this layout.*--accept-two-leaders/s,
    );
    expect(await c.held('S1')).toBe(true);
    const released = await runCli([...args, '--accept-two-leaders'], {});
    expect(released.code, released.stdout + released.stderr).toBe(0);
    expect(await c.held('S1')).toBe(true); // the old leader was not told, as the refusal said
  });

  it('runs a command under Lockboard’s lock in kazoo’s queue, with the sequence as fencing token', async () => {
    await k.start('holder', 'lock', '/svc/jobs/nightly', 'kazoo-holder');
    const run = startCli(
      [
        'run',
        '--source',
        source,
        '/svc/jobs/nightly',
        '--quiet',
        '--',
        'sh',
        '-c',
        'echo "token=$LOCKBOARD_FENCING_TOKEN"',
      ],
      {},
    );
    await new Promise((r) => setTimeout(r, 1_000));
    expect(run.child.exitCode).toBeNull(); // waiting behind kazoo's holder
    await k.release('holder');
    const done = await run.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('token=1');
  });
});
