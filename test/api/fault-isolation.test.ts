// One store down never blanks the others: S3 (the emulator), Redis, PostgreSQL and DynamoDB (dynalite) configured
// together, each real server stopped in turn under an open stream. The stopped source is shown as unreachable with its
// store's own words and the time of its last good listing; every other source stays listed, counted and live.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { startRedis, type TestRedis } from '../helpers/redis';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { s3ClientFor } from '../helpers/s3';
import { openStream } from '../helpers/stream';

const VIEWER = 'viewer@example.com';
let emulator: Emulator;
let redis: TestRedis;
let pg: TestPostgres;
let dynamo: TestDynamo;
let routes: Routes;
let streamRoute: typeof import('@/app/api/locks/stream/route');
let sources: { redis: string; pg: string; dynamo: string; s3: string };

const tflock = (who: string) => JSON.stringify({ ID: `id-${who}`, Operation: 'OperationTypeApply', Who: who });
const putS3 = (key: string, who: string) =>
  s3ClientFor(emulator.s3!.url).send(new PutObjectCommand({ Bucket: 'state', Key: key, Body: tflock(who) }));

beforeAll(async () => {
  [emulator, redis, pg, dynamo] = await Promise.all([
    startEmulator({ s3: { buckets: ['state'] } }),
    startRedis(),
    startPostgres(),
    startDynamo(),
  ]);
  await putS3('envs/prod/terraform.tfstate.tflock', 'ann@laptop');
  await redis.client.sendCommand(['SET', 'locks:nightly', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'PX', '600000']);
  await dynamo.table('tf-locks', 'LockID');
  await dynamo.table('lockboard-audit', 'lock', 'id');
  await dynamo.put('tf-locks', { LockID: { S: 'state/prod' }, Info: { S: tflock('bob@ci') } });
  sources = {
    s3: 's3://state/envs/',
    redis: `redis://127.0.0.1:${redis.port}/0`,
    pg: pg.url,
    dynamo: 'dynamodb://tf-locks',
  };
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: Object.values(sources).join(','),
    AWS_ENDPOINT_URL_S3: emulator.s3!.url,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_REGION: 'us-east-1',
    LOCKBOARD_VIEWERS: VIEWER,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
  streamRoute = await import('@/app/api/locks/stream/route');
}, 120_000);
afterAll(async () => {
  await Promise.allSettled([redis?.stop(), pg?.stop(), dynamo?.stop(), emulator?.close()]);
});

interface State {
  source: string;
  error?: { message: string; at: string };
  lastGoodRead?: string;
}
const listAll = async () => {
  const r = await call(routes.locks.GET, '/api/locks?source=all', { as: VIEWER });
  return {
    status: r.status,
    locks: (r.json.locks ?? []) as { name: string }[],
    states: (r.json.sources ?? []) as State[],
  };
};
const until = async <T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
};

describe('a store that goes down', () => {
  it('is shown unreachable in its own words while every other source stays listed and live', async () => {
    const all = await until(listAll, (v) => v.locks.length === 3);
    expect(all.locks.map((l) => l.name).sort()).toEqual([
      'envs/prod/terraform.tfstate.tflock',
      'locks:nightly',
      'state/prod',
    ]);
    const stream = await openStream(streamRoute.GET, VIEWER, { path: '/api/locks/stream?source=all' });
    await stream.next('snapshot', 20_000);

    for (const [stop, down] of [
      [() => redis.stop(), sources.redis],
      [() => pg.stop(), sources.pg],
      [() => dynamo.stop(), sources.dynamo],
    ] as const) {
      await stop();
      const scheme = `${down.split('://')[0]}://`; // a source is shown without its credentials
      const mine = (s: State) => s.source.startsWith(scheme);
      const after = await until(listAll, (v) => v.states.some((s) => mine(s) && s.error));
      expect(after.status, down).toBe(200);
      const state = after.states.find(mine)!;
      expect(state.error!.message, down).toMatch(/\S/);
      expect(after.states.find((s) => s.source === sources.s3)?.error, 'S3 answers').toBeUndefined();
      // the S3 source stays listed and pushed: a new lock there reaches the open stream
      expect(after.locks.map((l) => l.name)).toContain('envs/prod/terraform.tfstate.tflock');
      const key = `envs/after-${down.split(':')[0]}/terraform.tfstate.tflock`;
      await putS3(key, 'carol@ci');
      let seen = false;
      for (let i = 0; i < 20 && !seen; i++) {
        const change = await stream.next('change', 10_000);
        seen = (change.upsert as { name: string }[]).some((l) => l.name === key);
      }
      expect(seen, `a change in S3 pushed after ${down} stopped`).toBe(true);
    }
    await stream.close();
  }, 180_000);

  it('answers 503 in the stores’ own words only when every source is down', async () => {
    await emulator.close();
    const r = await until(
      () => call(routes.locks.GET, '/api/locks?source=all', { as: VIEWER }),
      (v) => v.status === 503,
      60_000,
    );
    expect(r.status).toBe(503);
    expect((r.json.error as { message: string }).message).toContain(sources.s3);
  }, 90_000);
});
