// At-least-once webhooks across replicas, on real servers (GCS emulator, Redis, PostgreSQL) sharing one receiver: a
// replica in a process of its own claims one force-release per store while the receiver is down (503), retries, and
// is killed (SIGKILL) mid-series. The receiver comes back; a second replica (this process) takes each claim over once
// its lease ran out and delivers it, continuing the same series (same X-Lockboard-Delivery, attempts counted on).
// A replica paused (SIGSTOP) instead of killed sends nothing more once resumed: its renewal is refused, it stops.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sources } from '@/lib/server/sources';
import { storeFor } from '@/lib/server/stores';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { startRedis, type TestRedis } from '../helpers/redis';
import { SECRET } from '../helpers/routes';
import { claimOf, teamReplica } from './leases';
import { startReceiver, until, type Receiver } from './receiver';

const LEASE_MS = 1_500;
let gcs: Target;
let redis: TestRedis;
let pg: TestPostgres;
let r: Receiver;
let child: ChildProcess | undefined;
const out: string[] = [];

beforeAll(async () => {
  [gcs, redis, pg, r] = await Promise.all([startTestEmulator(), startRedis(), startPostgres(), startReceiver()]);
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: [`gs://${gcs.bucket}/`, `${redis.url}/0`, pg.url].join(','),
    LOCKBOARD_GCS_ENDPOINT: gcs.emulator!.url,
    LOCKBOARD_OPERATORS: 'ops@example.com',
    NEXTAUTH_SECRET: SECRET,
    NEXTAUTH_URL: 'https://lockboard.example',
  });
}, 120_000);
afterAll(async () => {
  child?.kill('SIGKILL');
  await Promise.all([r?.close(), redis?.stop(), pg?.stop(), gcs?.close()]);
});

const ids = () => new Set(r.received.map((x) => (JSON.parse(x.body) as { id: string }).id));
const attemptsOf = (id: string) => r.received.filter((x) => x.headers['x-lockboard-delivery'] === id).length;

function startChild(delayMs = 200): Promise<string> {
  out.length = 0;
  child = spawn(
    process.execPath,
    [
      '--conditions=react-server',
      '--import',
      'tsx',
      'test/notify/lease-replica.ts',
      r.url,
      String(LEASE_MS),
      String(delayMs),
    ],
    { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (b: Buffer) => out.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => out.push(b.toString()));
  return until(() => /^pass 1 /m.test(out.join('')), 'the first replica’s first pass', 60_000).then(
    () => /^owner (\S+)$/m.exec(out.join(''))![1]!,
  );
}

describe('a replica killed mid-retry', () => {
  it('has its claimed events delivered by another replica once its leases run out, on GCS, Redis and PostgreSQL', async () => {
    r.script.push(...Array<number>(100_000).fill(503)); // the receiver is down
    const first = await startChild();
    const all = sources();
    expect(all.map((s) => s.store)).toEqual(['gcs', 'redis', 'postgres']);
    for (const s of all)
      await (
        await storeFor(s)
      ).record({ event: 'force-released', lock: 'deploy', operator: 'ops@example.com', reason: 'stuck' });
    await until(
      () => ids().size === 3 && [...ids()].every((id) => attemptsOf(id) >= 3),
      'three series retrying',
      60_000,
    );
    const eventIds = [...ids()];
    const bySource = new Map<string, string>();
    for (const id of eventIds) {
      const body = JSON.parse(r.received.find((x) => x.headers['x-lockboard-delivery'] === id)!.body) as {
        lock: { source: string };
      };
      bySource.set(body.lock.source, id);
    }
    for (const s of all)
      expect(await claimOf(s, bySource.get(s.id)!)).toMatchObject({ owner: first, state: 'pending' });

    child!.kill('SIGKILL');
    await new Promise((ok) => child!.once('exit', ok));
    const killedAt = Date.now();
    const before = new Map(eventIds.map((id) => [id, attemptsOf(id)]));
    r.script.length = 0; // the receiver is back

    const second = teamReplica(r.url, { leaseMs: LEASE_MS, retry: { baseDelayMs: 200 } });
    try {
      const delivered = () => second.deliveries.recent('team').filter((d) => d.status === 'delivered');
      await until(() => delivered().length === 3, 'the second replica to deliver all three', 30_000);
      const tookMs = Date.now() - killedAt;
      for (const s of all) {
        const id = bySource.get(s.id)!;
        const claim = await claimOf(s, id);
        // the same series, taken over: delivered by the second replica, its attempts counted on from the first's
        expect(claim, s.store).toMatchObject({ owner: second.owner, state: 'delivered' });
        expect(claim!.attempts).toBeGreaterThan(before.get(id)!);
        expect(attemptsOf(id)).toBe(claim!.attempts);
      }
      // nothing sent before a lease ran out, nothing more after
      const firstAfter = r.received.filter((x) => x.at > killedAt).map((x) => x.at);
      expect(Math.min(...firstAfter) - killedAt).toBeGreaterThanOrEqual(0);
      await second.poll();
      expect(second.queue.size).toBe(0);
      console.log(
        `[takeover] first replica killed after ${[...before.values()].join('/')} attempts; all three delivered by the second ${tookMs} ms later (lease ${LEASE_MS} ms)`,
      );
    } finally {
      await second.stop();
    }
  }, 120_000);

  it('stops sending, once resumed, a series taken over while it was paused (its renewal is refused)', async () => {
    r.received.length = 0;
    r.script.length = 0;
    r.script.push(...Array<number>(100_000).fill(503));
    const first = await startChild(1_000); // a second between attempts
    const redisSource = sources().find((s) => s.store === 'redis')!;
    await (
      await storeFor(redisSource)
    ).record({ event: 'force-released', lock: 'paused', operator: 'ops@example.com' });
    const forLock = () =>
      r.received.filter((x) => (JSON.parse(x.body) as { lock: { name: string } }).lock.name === 'paused');
    await until(() => forLock().length === 1, 'the first attempt', 30_000);
    child!.kill('SIGSTOP'); // paused between attempts, its lease running out
    const id = forLock()[0]!.headers['x-lockboard-delivery'] as string;
    expect(await claimOf(redisSource, id)).toMatchObject({ owner: first, state: 'pending' });
    r.script.length = 0;
    const second = teamReplica(r.url, { leaseMs: LEASE_MS });
    try {
      await until(() => forLock().length === 2, 'the other replica to deliver it', 30_000);
      for (let i = 0; (await claimOf(redisSource, id))?.state !== 'delivered'; i++) {
        expect(i, 'the claim settled').toBeLessThan(100);
        await new Promise((ok) => setTimeout(ok, 100));
      }
      child!.kill('SIGCONT');
      const passes = () => (out.join('').match(/^pass /gm) ?? []).length;
      const resumedAt = passes();
      await until(() => passes() > resumedAt + 10, 'the first replica to run on', 30_000);
      expect(forLock()).toHaveLength(2); // nothing more from the first: its renewal before the attempt was refused
      expect(
        out
          .join('')
          .split('\n')
          .filter((l) => l.startsWith('pass '))
          .at(-1),
      ).toMatch(/^pass \d+ 0 /);
      expect(await claimOf(redisSource, id)).toMatchObject({ owner: second.owner, state: 'delivered' });
    } finally {
      await second.stop();
      child!.kill('SIGKILL');
    }
  }, 120_000);
});
