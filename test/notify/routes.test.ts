// GET/POST /api/webhooks called directly, and the console's own notifier (started as at start-up) telling a
// force-release made through the release route.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock } from '@/lib/lock';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { call, SECRET } from '../helpers/routes';
import { startReceiver, until, type Receiver } from './receiver';

const OPERATOR = 'ops@example.com';
const VIEWER = 'dev@viewers.example';
let t: Target;
let r: Receiver;
let dir: string;
let webhooks: typeof import('@/app/api/webhooks/route');
let release: typeof import('@/app/api/locks/release/route');
let metrics: typeof import('@/app/api/metrics/route');

beforeAll(async () => {
  t = await startTestEmulator();
  r = await startReceiver();
  dir = mkdtempSync(join(tmpdir(), 'lockboard-webhooks-'));
  const file = join(dir, 'webhooks.yaml');
  writeFileSync(
    file,
    `webhooks:\n  - name: team\n    url: ${r.url}\n    secret_env: TEST_WEBHOOK_SECRET\n    locks: ["gs://test-bucket/locks/*"]\n`,
  );
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_PREFIXES: 'locks/',
    LOCKBOARD_OPERATORS: OPERATOR,
    LOCKBOARD_VIEWERS: '@viewers.example',
    LOCKBOARD_WEBHOOKS_FILE: file,
    TEST_WEBHOOK_SECRET: 'route-secret-0123456789',
    LOCKBOARD_METRICS_TOKEN: 'metrics-token-0123456789',
    LOCKBOARD_LOCK_GAUGE: '1',
    NEXTAUTH_SECRET: SECRET,
  });
  (await import('@/lib/server/notify')).startWebhooks();
  webhooks = await import('@/app/api/webhooks/route');
  release = await import('@/app/api/locks/release/route');
  metrics = await import('@/app/api/metrics/route');
});
afterAll(async () => {
  await r.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('/api/webhooks', () => {
  it('shows operators each webhook by its host only, never its path, token or secret', async () => {
    const res = await call(webhooks.GET, '/api/webhooks', { as: OPERATOR });
    expect(res.status).toBe(200);
    expect(res.json.webhooks).toMatchObject([
      { name: 'team', format: 'json', host: new URL(r.url).host, signed: true },
    ]);
    expect(res.text).not.toContain('SECRET-TOKEN');
    expect(res.text).not.toContain('route-secret');
  });

  it('refuses viewers', async () => {
    expect((await call(webhooks.GET, '/api/webhooks', { as: VIEWER })).status).toBe(403);
    const post = await call(webhooks.POST, '/api/webhooks', { as: VIEWER, method: 'POST', body: { webhook: 'team' } });
    expect(post.status).toBe(403);
  });

  it('sends a test message and lists it', async () => {
    const res = await call(webhooks.POST, '/api/webhooks', { as: OPERATOR, method: 'POST', body: { webhook: 'team' } });
    expect(res.status).toBe(202);
    await until(() => r.received.some((x) => x.headers['x-lockboard-event'] === 'test'), 'the test message');
    const listed = await call(webhooks.GET, '/api/webhooks', { as: OPERATOR });
    const [team] = listed.json.webhooks as { deliveries: { event: string; status: string }[] }[];
    expect(team!.deliveries[0]).toMatchObject({ event: 'test', status: 'delivered' });
    const unknown = await call(webhooks.POST, '/api/webhooks', {
      as: OPERATOR,
      method: 'POST',
      body: { webhook: 'x' },
    });
    expect(unknown.status).toBe(404);
  });

  it('tells a force-release made through the release route, once', async () => {
    const lock = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/deploy',
      identity: 'runner-1',
      ttlMs: 60_000,
    });
    const res = await call(release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { name: 'locks/deploy', generation: lock.generation, acknowledgeAlive: true, reason: 'stuck deploy' },
    });
    expect(res.status).toBe(200);
    const told = () => r.received.filter((x) => x.headers['x-lockboard-event'] === 'force-released');
    await until(() => told().length === 1, 'the force-release message', 15_000);
    expect(JSON.parse(told()[0]!.body)).toMatchObject({
      actor: OPERATOR,
      reason: 'stuck deploy',
      lock: { name: 'locks/deploy' },
    });
  });

  it('counts deliveries and, opted in, reports each held lock by its address', async () => {
    const held = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/held', ttlMs: 60_000 });
    try {
      const res = await call(metrics.GET, '/api/metrics', {
        headers: { authorization: 'Bearer metrics-token-0123456789' },
      });
      expect(res.status).toBe(200);
      expect(res.text).toMatch(/^lockboard_webhook_deliveries_total\{webhook="team",outcome="delivered"\} [1-9]/m);
      expect(res.text).toMatch(
        /^lockboard_lock_held_seconds\{address="gs:\/\/test-bucket\/locks\/held",verdict="alive"\} \d+/m,
      );
    } finally {
      await held.release();
    }
  });
});
