// A replica hands back what it cannot send, on Redis: a series its full queue drops, and those still queued when it
// stops (a rolling restart), are expired at once in the store, and another replica takes them over within seconds (it
// looks again every 10 s), without waiting for a lease to run out. Two notifiers in this process share the store and
// one receiver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notifier } from '@/lib/server/notify/notifier';
import { sources } from '@/lib/server/sources';
import { storeFor } from '@/lib/server/stores';
import { startRedis, type TestRedis } from '../helpers/redis';
import { SECRET } from '../helpers/routes';
import { claimOf, teamReplica } from './leases';
import { startReceiver, until, type Receiver } from './receiver';

const LEASE_MS = 30_000; // long: a takeover here is never a lease running out
let redis: TestRedis;
let r: Receiver;
const running: Notifier[] = [];

beforeAll(async () => {
  [redis, r] = await Promise.all([startRedis(), startReceiver()]);
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `${redis.url}/0`,
    LOCKBOARD_OPERATORS: 'ops@example.com',
    NEXTAUTH_SECRET: SECRET,
    NEXTAUTH_URL: 'https://lockboard.example',
  });
});
afterAll(async () => {
  for (const n of running) await n.stop({ handBack: false });
  await r?.close();
  await redis?.stop();
});

function replica(o: { maxQueue?: number } = {}): Notifier {
  const n = teamReplica(r.url, { leaseMs: LEASE_MS, retry: { baseDelayMs: 200, maxDelayMs: 400 }, ...o });
  running.push(n);
  return n;
}

const claimOfEvent = (eventId: string) => claimOf(sources()[0]!, eventId);

const record = async (lock: string) =>
  (await storeFor(sources()[0]!)).record({ event: 'force-released', lock, operator: 'ops@example.com', reason: 'x' });
const idsOf = (lock: string) => [
  ...new Set(
    r.received
      .map((x) => JSON.parse(x.body) as { id: string; lock: { name: string } })
      .filter((b) => b.lock.name === lock)
      .map((b) => b.id),
  ),
];

describe('a replica handing its claims back', () => {
  it('lets another replica take over, within seconds, a series its full queue dropped and those queued when it stopped', async () => {
    r.script.push(...Array<number>(100_000).fill(503));
    const a = replica({ maxQueue: 1 });
    await record('first');
    await until(() => idsOf('first').length === 1, 'the first event tried');
    await record('second'); // the queue holds one: the first series is dropped
    await until(() => idsOf('second').length === 1, 'the second event tried');
    const [first, second] = [idsOf('first')[0]!, idsOf('second')[0]!];
    expect(a.deliveries.recent('team').find((d) => d.id === first)?.status).toBe('dropped');
    expect(await claimOfEvent(first)).toMatchObject({ owner: a.owner, state: 'pending', until: 0 });
    expect(await claimOfEvent(second)).toMatchObject({ owner: a.owner, state: 'pending' });

    const b = replica();
    await until(() => a.queue.size === 1 && b.queue.size === 1, 'the dropped series taken over by the other replica');
    expect((await claimOfEvent(first))?.owner).toBe(b.owner);
    const stoppedAt = Date.now();
    await a.stop(); // a rolling restart: the second series handed back
    expect(await claimOfEvent(second)).toMatchObject({ owner: a.owner, until: 0 });
    r.script.length = 0; // the receiver is back
    await until(
      () => b.deliveries.recent('team').filter((d) => d.status === 'delivered').length === 2,
      'both sent',
      40_000,
    );
    const tookMs = Date.now() - stoppedAt;
    expect(tookMs).toBeLessThan(LEASE_MS);
    for (const id of [first, second])
      expect(await claimOfEvent(id)).toMatchObject({ owner: b.owner, state: 'delivered' });
    console.log(`[handover] both series delivered by the other replica ${tookMs} ms after the first stopped`);
  }, 60_000);
});
