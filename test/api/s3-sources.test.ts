// S3 beside GCS in the console: LOCKBOARD_SOURCES with gs:// and s3:// sources, through the route handlers against
// the emulator's two sides: listing with each lock's store and version, the lock page by bucket, a force-release
// conditioned on the ETag (a stale one deletes nothing), audit and churn from the S3 trail, metrics with the store.
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, type Lock, type LockInfo } from '@/lib/lock';
import { acquireS3Lock, type S3Lock } from '@/lib/lock/stores/s3';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { Storage } from '@google-cloud/storage';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { s3ClientFor } from '../helpers/s3';

const OPERATOR = 'ops@example.com';
const VIEWER = 'viewer@example.com';
let emulator: Emulator;
let routes: Routes;
let gcsLock: Lock;
let s3Lock: S3Lock;
const s3 = () => s3ClientFor(emulator.s3!.url);

beforeAll(async () => {
  emulator = await startEmulator({ buckets: ['ci-locks'], s3: { buckets: ['tf-state'] } });
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: 'gs://ci-locks/locks/,s3://tf-state/',
    LOCKBOARD_GCS_ENDPOINT: emulator.url,
    AWS_ENDPOINT_URL_S3: emulator.s3!.url,
    LOCKBOARD_OPERATORS: OPERATOR,
    LOCKBOARD_VIEWERS: VIEWER,
    LOCKBOARD_METRICS_TOKEN: 'metrics-token-0123456789',
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'test' });
  gcsLock = await acquireLock({
    storage,
    bucket: 'ci-locks',
    name: 'locks/deploy',
    identity: 'runner-1',
    ttlMs: 60_000,
  });
  await s3().send(
    new PutObjectCommand({ Bucket: 'tf-state', Key: 'envs/prod/terraform.tfstate', Body: '{"version":4}' }),
  );
  await s3().send(
    new PutObjectCommand({
      Bucket: 'tf-state',
      Key: 'envs/prod/terraform.tfstate.tflock',
      Body: JSON.stringify({ ID: 'tf-id-1', Operation: 'OperationTypeApply', Who: 'ann@ci' }),
      IfNoneMatch: '*',
    }),
  );
  s3Lock = await acquireS3Lock({
    client: s3(),
    bucket: 'tf-state',
    name: 'jobs/nightly',
    identity: 'cron-1',
    ttlMs: 60_000,
  });
});

afterAll(async () => {
  await gcsLock.release();
  await s3Lock.release().catch(() => undefined);
  await emulator.close();
});

type View = LockInfo & { store: string; version: string; versionLabel: string; source: string };

describe('S3 sources in the console', () => {
  it('lists GCS and S3 locks together, each with its store, source and version; data objects are skipped', async () => {
    const all = await call(routes.locks.GET, '/api/locks?source=all', { as: VIEWER });
    expect(all.status).toBe(200);
    const locks = all.json.locks as View[];
    const summary = locks.map((l) => [l.store, l.bucket, l.name, l.format, l.identity]).sort();
    expect(summary).toEqual([
      ['gcs', 'ci-locks', 'locks/deploy', 'lockboard', 'runner-1'],
      ['s3', 's3://tf-state', 'envs/prod/terraform.tfstate.tflock', 'terraform', 'ann@ci'],
      ['s3', 's3://tf-state', 'jobs/nightly', 'lockboard', 'cron-1'],
    ]);
    expect(all.json.skipped).toBeGreaterThanOrEqual(1); // the .tfstate (and the S3 lock's audit events)
    const gcs = locks.find((l) => l.store === 'gcs')!;
    expect(gcs.version).toBe(`${gcs.generation}.${gcs.metageneration}`);
    const one = await call(routes.locks.GET, `/api/locks?source=${encodeURIComponent('s3://tf-state/')}`, {
      as: VIEWER,
    });
    expect((one.json.locks as View[]).every((l) => l.store === 's3' && l.source === 's3://tf-state/')).toBe(true);
  });

  it('shows one S3 lock by name and bucket, and a free one as absent', async () => {
    const name = 'envs/prod/terraform.tfstate.tflock';
    const r = await call(
      routes.lock.GET,
      `/api/locks/${name}?bucket=${encodeURIComponent('s3://tf-state')}`,
      { as: VIEWER },
      {
        name: name.split('/'),
      },
    );
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ store: 's3', identity: 'ann@ci', format: 'terraform' });
    expect(r.json.details).toContainEqual(['Equivalent command', 'terraform force-unlock tf-id-1']);
    const free = await call(
      routes.lock.GET,
      `/api/locks/jobs/none?bucket=${encodeURIComponent('s3://tf-state')}`,
      { as: VIEWER },
      {
        name: ['jobs', 'none'],
      },
    );
    expect(free.json).toMatchObject({ absent: true, bucket: 's3://tf-state' });
  });

  it('force-releases an S3 lock only at the version seen: 409 with the successor for a stale one', async () => {
    const name = 'envs/prod/terraform.tfstate.tflock';
    const list = await call(routes.locks.GET, `/api/locks?source=${encodeURIComponent('s3://tf-state/')}`, {
      as: VIEWER,
    });
    const seen = (list.json.locks as View[]).find((l) => l.name === name)!;
    await s3().send(new DeleteObjectCommand({ Bucket: 'tf-state', Key: name }));
    await s3().send(
      new PutObjectCommand({ Bucket: 'tf-state', Key: name, Body: JSON.stringify({ ID: 'tf-id-2', Who: 'bob@ci' }) }),
    );
    const body = { name, bucket: 's3://tf-state', version: seen.version, reason: 'apply killed' };
    const stale = await call(routes.release.POST, '/api/locks/release', { as: OPERATOR, method: 'POST', body });
    expect(stale.status).toBe(409);
    expect((stale.json.current as View).identity).toBe('bob@ci');
    const viewer = await call(routes.release.POST, '/api/locks/release', { as: VIEWER, method: 'POST', body });
    expect(viewer.status).toBe(403);
    const noVersion = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { name, bucket: 's3://tf-state', generation: '1', reason: 'x' },
    });
    expect(noVersion.status).toBe(400);
    expect((noVersion.json.error as { message: string }).message).toMatch(
      /"1" is not a version of s3:\/\/tf-state\/: an S3 version is ETAG/,
    );
    const current = stale.json.current as View;
    const done = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { ...body, version: current.version },
    });
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ outcome: 'released' });
  });

  it('reads the S3 audit trail into the lock history and churn', async () => {
    // S3 stamps events on its own clock (whole seconds in its Date header): ask for a window reaching past now
    const to = encodeURIComponent(new Date(Date.now() + 5_000).toISOString());
    const r = await call(
      routes.audit.GET,
      `/api/audit?lock=${encodeURIComponent('envs/prod/terraform.tfstate.tflock')}&bucket=${encodeURIComponent('s3://tf-state')}&to=${to}`,
      {
        as: VIEWER,
      },
    );
    expect(r.status).toBe(200);
    const events = (r.json.events as { event: string; operator?: string; reason?: string }[])
      .map((e) => e.event)
      .sort();
    expect(events).toEqual(['force-release-requested', 'force-released']);
    const churn = await call(routes.audit.GET, `/api/audit?to=${to}`, { as: VIEWER });
    const kinds = new Set((churn.json.events as { event: string; lock: string }[]).map((e) => `${e.event}:${e.lock}`));
    expect(kinds.has('acquired:jobs/nightly')).toBe(true); // Lockboard's S3 lock records its own events
  });

  it('reads a source configured as lacking conditional deletes as read-only, and refuses other source options', async () => {
    const { parseEnv } = await import('@/lib/server/env');
    const env = parseEnv({
      NEXTAUTH_SECRET: 'a'.repeat(32),
      LOCKBOARD_SOURCES: 's3://tf-state/?conditional-deletes=false',
      AWS_REGION: 'us-east-1',
    });
    expect(env.sources[0]).toMatchObject({
      id: 's3://tf-state/',
      readOnly: expect.stringMatching(/lacking conditional deletes/),
    });
    expect(() => parseEnv({ NEXTAUTH_SECRET: 'a'.repeat(32), LOCKBOARD_SOURCES: 'gs://b-1/?x=1' })).toThrow(
      /expected gs:\/\/BUCKET\/PREFIX/,
    );
  });

  it('labels S3 series with their store in /api/metrics', async () => {
    const r = await call(routes.metrics.GET, '/api/metrics', {
      headers: { authorization: 'Bearer metrics-token-0123456789' },
    });
    expect(r.status).toBe(200);
    expect(r.text).toContain('lockboard_locks{store="s3",bucket="tf-state",prefix="",health="healthy"} 1');
    expect(r.text).toContain('lockboard_locks{store="gcs",bucket="ci-locks",prefix="locks/",health="healthy"} 1');
  });
});
