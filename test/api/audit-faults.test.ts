// The audit routes with one real server after another stopped (Redis, PostgreSQL, dynalite, the emulator): each
// trail is read once (three DynamoDB lock tables share one audit table), each event counted once and named with its
// source; a stopped server's sources are listed unreachable in the store's words while every other source's events
// stay; with every trail down the answer is a 503 naming them, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource, parseSource } from '@/lib/lock/stores';
import { startEmulator, type Emulator } from '@/lib/emulator';
import type { TrailFault } from '@/lib/console/churn/summary';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { startRedis, type TestRedis } from '../helpers/redis';

const VIEWER = 'viewer@example.com';
let routes: Routes;
/** Today's slices are cached for 5 s: dropped after each stop, as if the next poll came after that. */
let expireCache: () => void;
let redis: TestRedis;
let pg: TestPostgres;
let dynamo: TestDynamo;
let gcs: Emulator;
const TABLES = ['tf-a', 'tf-b', 'tf-c'];
let ids: { redis: string; pg: string; gcs: string };

async function record(url: string, lock: string, n: number): Promise<void> {
  const env = { ...process.env };
  const store = await openSource(parseSource(url, env), { env, role: 'cli' });
  try {
    for (let i = 0; i < n; i++) await store.record({ event: 'acquired', lock, generation: String(i + 1) });
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  [redis, pg, dynamo, gcs] = await Promise.all([
    startRedis(),
    startPostgres(),
    startDynamo(),
    startEmulator({ buckets: ['ci'] }),
  ]);
  for (const t of TABLES) await dynamo.table(t);
  await dynamo.table('lockboard-audit', 'lock', 'id');
  ids = {
    redis: `redis://127.0.0.1:${redis.port}/0`,
    pg: `postgres://127.0.0.1:${pg.port}/postgres`,
    gcs: 'gs://ci/locks/',
  };
  const pgUrl = `postgres://postgres@127.0.0.1:${pg.port}/postgres`;
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: [ids.redis, pgUrl, ids.gcs, ...TABLES.map((t) => `dynamodb://${t}`)].join(','),
    LOCKBOARD_GCS_ENDPOINT: gcs.url,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
    AWS_REGION: 'us-east-1',
    LOCKBOARD_VIEWERS: VIEWER,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  // The same lock name in two DynamoDB tables: two locks, each counted once in its own source
  await record('dynamodb://tf-a', 'env/prod', 3);
  await record('dynamodb://tf-b', 'env/prod', 2);
  await record(ids.redis, 'deploy', 4);
  await record(pgUrl, 'billing', 5);
  await record(ids.gcs, 'locks/build', 6);
  routes = await importRoutes();
  expireCache = (await import('@/lib/server/audit/events')).invalidateOpenSlices;
}, 90_000);
afterAll(async () => {
  await Promise.allSettled([redis?.stop(), pg?.stop(), dynamo?.stop(), gcs?.close()]);
});

const window = () => `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`;
type Row = { source: string; lock: string; id: string };

async function audit() {
  const res = await call(routes.audit.GET, `/api/audit?${window()}&limit=5000`, { as: VIEWER });
  const events = (res.json.events ?? []) as Row[];
  const counts: Record<string, number> = {};
  for (const e of events) counts[`${e.source} ${e.lock}`] = (counts[`${e.source} ${e.lock}`] ?? 0) + 1;
  return { res, counts, unreachable: (res.json.unreachable ?? []) as TrailFault[] };
}

describe('audit with sources failing one by one', () => {
  it('reads the shared DynamoDB audit table once: each event once, with its own table as its source', async () => {
    const { res, counts, unreachable } = await audit();
    expect(res.status).toBe(200);
    expect(unreachable).toEqual([]);
    expect(counts).toEqual({
      'dynamodb://tf-a env/prod': 3,
      'dynamodb://tf-b env/prod': 2,
      [`${ids.redis} deploy`]: 4,
      [`${ids.pg} billing`]: 5,
      [`${ids.gcs} locks/build`]: 6,
    });
    const ids2 = (res.json.events as Row[]).map((e) => e.id);
    expect(new Set(ids2).size).toBe(ids2.length);
    const csv = await call(routes.audit.GET, `/api/audit?${window()}&format=csv`, { as: VIEWER });
    expect(csv.text.split('\n').filter((l) => l.includes(',dynamodb://tf-a,'))).toHaveLength(3);
  });

  it('keeps every other source when Redis, then PostgreSQL, then dynalite stop; names each stopped one', async () => {
    const expected: Record<string, number> = {
      'dynamodb://tf-a env/prod': 3,
      'dynamodb://tf-b env/prod': 2,
      [`${ids.redis} deploy`]: 4,
      [`${ids.pg} billing`]: 5,
      [`${ids.gcs} locks/build`]: 6,
    };
    const down: string[] = [];
    const steps: [string[], () => Promise<void>, RegExp][] = [
      [[`${ids.redis} deploy`], () => redis.stop(), /Redis/],
      [[`${ids.pg} billing`], () => pg.stop(), /PostgreSQL/],
      [['dynamodb://tf-a env/prod', 'dynamodb://tf-b env/prod'], () => dynamo.stop(), /DynamoDB/],
    ];
    for (const [gone, stop, store] of steps) {
      await stop();
      expireCache();
      for (const k of gone) delete expected[k];
      const started = Date.now();
      const { res, counts, unreachable } = await audit();
      expect(Date.now() - started).toBeLessThan(4_500);
      expect(res.status).toBe(200);
      expect(counts).toEqual(expected);
      const last = unreachable.find((f) => store.test(f.store))!;
      expect(last.message.length).toBeGreaterThan(10);
      expect(last.lastGoodAt).not.toBeNull();
      down.push(...last.sources);
      expect(unreachable.flatMap((f) => f.sources).sort()).toEqual([...down].sort());
      const summary = await call(routes.summary.GET, `/api/audit/summary?${window()}`, { as: VIEWER });
      expect(summary.status).toBe(200);
      expect(summary.json.total).toBe(Object.values(expected).reduce((a, b) => a + b, 0));
    }
    expect(down.filter((s) => s.startsWith('dynamodb://')).sort()).toEqual(TABLES.map((t) => `dynamodb://${t}`));
  }, 60_000);

  it('answers 503 naming the stores when every trail is down, never a 500', async () => {
    await gcs.close();
    expireCache();
    const res = await call(routes.summary.GET, `/api/audit/summary?${window()}`, { as: VIEWER });
    expect(res.status).toBe(503);
    expect((res.json.error as { message: string }).message).toMatch(/Cloud Storage|unavailable|answer/);
  }, 30_000);
});
