// The same rule for a store's own change feed: a Redis source with keyspace notifications is listed only as a check
// every LOCKBOARD_RECONCILE (4 s here) while its events keep up; when the server stops sending them (an operator
// turned notify-keyspace-events off: the subscription stays up, silent) a check finds keys no event named and the
// source is SCANned at Redis's pace again, saying so; events back and a clean interval later, it is pushed again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRoutes, SECRET, type Routes } from '../helpers/routes';
import { labelWithin as waitForLabel } from '../helpers/live-label';
import { startRedis, type TestRedis } from '../helpers/redis';
import { openStream } from '../helpers/stream';

const VIEWER = 'viewer@example.com';
const CHECK_MS = 4_000;
let r: TestRedis;
let routes: Routes;
let source: string;
let metrics: typeof import('@/lib/server/metrics/metrics').metrics;

beforeAll(async () => {
  r = await startRedis(['--notify-keyspace-events', 'Kg$hx']);
  source = `redis://127.0.0.1:${r.port}/0?match=locks:*`;
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: source,
    LOCKBOARD_VIEWERS: VIEWER,
    LOCKBOARD_RECONCILE: `${CHECK_MS / 1000}s`,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
  ({ metrics } = await import('@/lib/server/metrics/metrics'));
}, 30_000);
afterAll(() => r?.stop());

const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
const set = (key: string) =>
  r.client.sendCommand(['SET', key, Math.random().toString(16).slice(2).padEnd(32, '0'), 'PX', '60000']);

async function lists(): Promise<number> {
  const { values } = await metrics.lists.get();
  return values.find((v) => v.labels.source === source)?.value ?? 0;
}

async function labelWithin(ms: number, wanted: RegExp): Promise<string> {
  return (await waitForLabel(source, ms, wanted)).label;
}

describe('a Redis source with keyspace notifications', () => {
  it('is listed only as a check while its events keep up, and SCANned again, saying so, when they stop', async () => {
    const s = await openStream(routes.stream.GET, VIEWER, { path: '/api/locks/stream?source=all' });
    await s.next('snapshot');
    await labelWithin(
      2_000,
      /^pushed \(keyspace notifications \(notify-keyspace-events [^)]+\)\) · checked every 4 s$/,
    );
    let before = await lists();
    for (let i = 0; i < 8; i++) {
      const wrote = Date.now();
      await set(`locks:pushed-${i}`);
      await s.shown(`locks:pushed-${i}`, 1_000);
      expect(Date.now() - wrote).toBeLessThan(1_000);
      await sleep(1_000);
    }
    const pushed = (await lists()) - before;
    expect(pushed, 'SCAN passes in ~9 s at a 4 s check (1 s when polled)').toBeLessThanOrEqual(4);

    // the server stops sending events; the subscription stays up and says nothing
    await r.client.sendCommand(['CONFIG', 'SET', 'notify-keyspace-events', '']);
    for (let i = 0; i < 3; i++) await set(`locks:silent-${i}`);
    const label = await labelWithin(
      CHECK_MS + 3_000,
      /^polled every 1 s: (pushes missed \d+ changes?|no pushes for \d+ s)$/,
    );
    await s.shown('locks:silent-2', 2_000);
    before = await lists();
    await sleep(4_000);
    const polled = (await lists()) - before;
    console.log(`events on: ${pushed} SCAN passes in ~9 s; off: "${label}", then ${polled} passes in 4 s`);
    expect(polled, 'SCANned at Redis’s pace again').toBeGreaterThanOrEqual(3);

    await r.client.sendCommand(['CONFIG', 'SET', 'notify-keyspace-events', 'Kg$hx']);
    for (let i = 0; i < 5; i++) {
      await set(`locks:back-${i}`);
      await sleep(1_000);
    }
    await labelWithin(2 * CHECK_MS + 2_000, /^pushed /);
    await s.close();
  }, 60_000);
});
