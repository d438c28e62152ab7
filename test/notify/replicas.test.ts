// Two console replicas, each in a process of its own, on one Redis source and one receiver: every force-release is
// delivered exactly once, because each event is claimed in Redis (SET NX under the trail's key) before it is sent.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Notifier } from '@/lib/server/notify/notifier';
import { sources } from '@/lib/server/sources';
import { storeFor } from '@/lib/server/stores';
import { startRedis, type TestRedis } from '../helpers/redis';
import { SECRET } from '../helpers/routes';
import { startReceiver, until, type Receiver } from './receiver';

let redis: TestRedis;
let r: Receiver;
let child: ChildProcess;
const childPasses: { n: number; queued: number; delivered: number }[] = [];
const logs: string[] = [];
const EVENTS = 6;

beforeAll(async () => {
  redis = await startRedis();
  r = await startReceiver();
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `${redis.url}/0`,
    LOCKBOARD_OPERATORS: 'ops@example.com',
    NEXTAUTH_SECRET: SECRET,
    NEXTAUTH_URL: 'https://lockboard.example',
  });
  child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'test/notify/replica.ts', r.url], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => {
    for (const m of b.toString().matchAll(/^pass (\d+) (\d+) (\d+)$/gm))
      childPasses.push({ n: +m[1]!, queued: +m[2]!, delivered: +m[3]! });
  });
  child.stderr!.on('data', (b: Buffer) => logs.push(b.toString()));
  await until(() => childPasses.length > 0, 'the second replica’s first pass', 60_000);
});
afterAll(async () => {
  child?.kill('SIGTERM');
  await r?.close();
  await redis?.stop();
});

/** A lock held (a redlock token) and force-released through this replica's store, as the release route does. */
async function forceRelease(name: string): Promise<void> {
  await redis.client.set(name, randomBytes(16).toString('hex'), { PX: 600_000 });
  const store = await storeFor(sources()[0]!);
  const view = (await store.inspect(name))!;
  const done = await store.forceRelease({ name, version: view.version, reason: 'stuck', operator: 'ops@example.com' });
  expect(done.outcome).toBe('released');
}

describe('webhooks from two replicas (two processes) on one Redis', () => {
  it('delivers each force-release exactly once, claimed in Redis', async () => {
    const a = new Notifier({
      sources,
      config: () => ({
        webhooks: [
          {
            name: 'team',
            url: r.url,
            format: 'json',
            events: ['force-released', 'release-refused'],
            locks: ['redis://*'],
            after: 600_000,
            secret: 'webhook-secret-0123456789',
          },
        ],
      }),
      pollMs: 100,
      retry: { baseDelayMs: 20 },
      log: (line) => logs.push(line),
    });
    a.start();
    try {
      for (let i = 0; i < EVENTS; i++) await forceRelease(`deploy:${i}`);
      await until(() => r.received.length >= EVENTS, `${EVENTS} deliveries`);
      // both replicas read the whole trail again after the last delivery, with nothing left to send
      const after = childPasses.at(-1)!.n;
      await until(() => childPasses.some((p) => p.n > after + 1 && p.queued === 0), 'the second replica to settle');
      await a.poll();
      await until(() => a.queue.size === 0, 'this replica to settle');
      const ids = r.received.map((x) => (JSON.parse(x.body) as { id: string }).id);
      expect(ids).toHaveLength(EVENTS);
      expect(new Set(ids).size).toBe(EVENTS);
      const names = r.received.map((x) => (JSON.parse(x.body) as { lock: { name: string } }).lock.name).sort();
      expect(names).toEqual([...Array(EVENTS).keys()].map((i) => `deploy:${i}`));
      // the claims are Redis keys beside the trail, kept two days; neither replica fell back to claiming alone
      // (and one marker of when the webhook joined the trail: lib/server/notify/hook-since.ts)
      const keys = await redis.client.keys('lockboard:audit:claims:*');
      const claims = keys.filter((k) => !k.includes('hook-joined-'));
      expect(keys.length - claims.length).toBe(1);
      expect(claims).toHaveLength(EVENTS);
      for (const k of claims) expect(await redis.client.pTTL(k)).toBeGreaterThan(86_400_000);
      expect(logs.join('\n')).not.toMatch(/keeps no create-only marker/);
      const mine = a.deliveries.recent('team').filter((d) => d.status === 'delivered').length;
      const theirs = childPasses.at(-1)!.delivered;
      expect(mine + theirs).toBe(EVENTS);
      console.log(
        `[replicas] ${EVENTS} events, ${ids.length} deliveries: ${mine} from this process, ${theirs} from the other`,
      );
    } finally {
      a.stop();
    }
  });
});
