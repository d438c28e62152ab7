// Many buckets: LOCKBOARD_SOURCES with a whole Terraform state bucket and a prefix of a CI bucket, through the route
// handlers against the emulator: listing per source and for all, lock pages and releases by bucket, audit events in
// the lock's own bucket, churn across buckets, metrics labelled by bucket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, listAuditEvents, type Lock, type LockInfo } from '@/lib/lock';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { writeTerraformLock, writeTerraformState } from '../helpers/writers';

const TF = 'tf-state-prod';
const CI = 'ci-locks';
const OTHER = 'other-ci';
const OPERATOR = 'ops@example.com';
let t: Target;
let routes: Routes;
const held: Lock[] = [];

beforeAll(async () => {
  t = await startTestEmulator({ buckets: [TF, CI, OTHER] });
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `gs://${TF}/,gs://${CI}/locks/,gs://${OTHER}/locks/`,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_OPERATORS: OPERATOR,
    LOCKBOARD_METRICS_TOKEN: 'metrics-token-0123456789',
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
  await writeTerraformState(t.storage, TF, 'prod/default.tfstate');
  await writeTerraformLock(t.storage, TF, 'prod/default.tfstate', 'ann@laptop');
  // The same lock name in both buckets: only the bucket tells them apart
  for (const bucket of [TF, CI]) {
    held.push(
      await acquireLock({
        storage: t.storage,
        bucket,
        name: 'locks/deploy',
        identity: `runner@${bucket}`,
        ttlMs: 60_000,
      }),
    );
  }
});

afterAll(async () => {
  await Promise.allSettled(held.map((l) => l.release()));
  await t.close();
});

const names = (locks: LockInfo[]) => locks.map((l) => `${l.bucket}:${l.name}`).sort();

describe('LOCKBOARD_SOURCES across buckets', () => {
  it('lists every source, or one, with each lock’s bucket; data and audit objects are skipped', async () => {
    const all = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    expect(all.status).toBe(200);
    expect(all.json.source).toBe('all');
    expect(names(all.json.locks as LockInfo[])).toEqual([
      `${CI}:locks/deploy`,
      `${TF}:locks/deploy`,
      `${TF}:prod/default.tflock`,
    ]);
    // the .tfstate; the audit events the holders wrote into the whole-bucket source are listed around, never counted
    expect(all.json.skipped as number).toBe(1);

    const ci = await call(routes.locks.GET, `/api/locks?source=${encodeURIComponent(`gs://${CI}/locks/`)}`, {
      as: OPERATOR,
    });
    expect(ci.status).toBe(200);
    expect(ci.json).toMatchObject({ source: `gs://${CI}/locks/`, bucket: CI, prefix: 'locks/' });
    expect(names(ci.json.locks as LockInfo[])).toEqual([`${CI}:locks/deploy`]);

    const unknown = await call(routes.locks.GET, '/api/locks?source=gs://other/locks/', { as: OPERATOR });
    expect(unknown.status).toBe(400);
    expect((unknown.json.error as { message: string }).message).toContain(`configured: gs://${TF}/, gs://${CI}/locks/`);
    const paged = await call(routes.locks.GET, '/api/locks?source=all&pageToken=abc', { as: OPERATOR });
    expect(paged.status).toBe(400);
  });

  it('asks which bucket when a lock name is in two buckets’ sources, and reads the one named', async () => {
    const ambiguous = await call(
      routes.lock.GET,
      '/api/locks/locks/deploy',
      { as: OPERATOR },
      { name: ['locks', 'deploy'] },
    );
    expect(ambiguous.status).toBe(400);
    expect((ambiguous.json.error as { message: string }).message).toMatch(/several buckets .*"bucket"/);
    for (const [i, bucket] of [TF, CI].entries()) {
      const r = await call(
        routes.lock.GET,
        `/api/locks/locks/deploy?bucket=${bucket}`,
        { as: OPERATOR },
        {
          name: ['locks', 'deploy'],
        },
      );
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ bucket, generation: held[i]!.generation, identity: `runner@${bucket}` });
    }
    // only in the whole-bucket source: no bucket needed
    const tf = await call(
      routes.lock.GET,
      '/api/locks/prod/default.tflock',
      { as: OPERATOR },
      {
        name: ['prod', 'default.tflock'],
      },
    );
    expect(tf.status).toBe(200);
    expect(tf.json).toMatchObject({ bucket: TF, format: 'terraform' });
    const audit = await call(
      routes.lock.GET,
      '/api/locks/.lockboard/audit/x',
      { as: OPERATOR },
      {
        name: ['.lockboard', 'audit', 'x'],
      },
    );
    expect(audit.status).toBe(400);
  });

  it('force-releases in the named bucket only, and writes the audit event to that bucket', async () => {
    const ci = held[1]!;
    const noBucket = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { name: 'locks/deploy', generation: ci.generation, acknowledgeAlive: true, reason: 'runner died' },
    });
    expect(noBucket.status).toBe(400);
    const r = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: {
        name: 'locks/deploy',
        bucket: CI,
        generation: ci.generation,
        acknowledgeAlive: true,
        reason: 'runner died',
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.outcome).toBe('released');

    const window = { from: new Date(Date.now() - 60_000), to: new Date(Date.now() + 60_000), lock: 'locks/deploy' };
    const base = { storage: t.storage, auditPrefix: '.lockboard/audit/', ...window };
    const inCi = (await listAuditEvents({ ...base, bucket: CI })).events.map((e) => e.event);
    const inTf = (await listAuditEvents({ ...base, bucket: TF })).events.map((e) => e.event);
    expect(inCi).toContain('force-released');
    expect(inTf).not.toContain('force-released');
    // the Terraform bucket's lock of the same name is untouched
    const tf = await call(
      routes.lock.GET,
      `/api/locks/locks/deploy?bucket=${TF}`,
      { as: OPERATOR },
      {
        name: ['locks', 'deploy'],
      },
    );
    expect(tf.json.generation).toBe(held[0]!.generation);
  });

  it('reads churn from the audit prefix of every source bucket, or of one', async () => {
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const all = await call(routes.audit.GET, `/api/audit?from=${from}&to=${to}`, { as: OPERATOR });
    expect(all.status).toBe(200);
    const events = all.json.events as { bucket: string; event: string }[];
    expect(new Set(events.map((e) => e.bucket))).toEqual(new Set([TF, CI]));
    const tfOnly = await call(routes.audit.GET, `/api/audit?from=${from}&to=${to}&lock=locks/deploy&bucket=${TF}`, {
      as: OPERATOR,
    });
    expect((tfOnly.json.events as { bucket: string }[]).every((e) => e.bucket === TF)).toBe(true);
    expect((tfOnly.json.events as unknown[]).length).toBeGreaterThan(0);
    const summary = await call(routes.summary.GET, `/api/audit/summary?from=${from}&to=${to}`, { as: OPERATOR });
    expect(summary.json.total as number).toBe(events.length);
  });

  it('labels metrics with the bucket and prefix of each source', async () => {
    const res = await routes.metrics.GET(
      new Request('http://console.test/api/metrics', { headers: { authorization: 'Bearer metrics-token-0123456789' } }),
    );
    const text = await res.text();
    expect(text).toMatch(new RegExp(`lockboard_locks\\{store="gcs",bucket="${TF}",prefix="",health="unknown"\\} 1`));
    expect(text).toMatch(new RegExp(`lockboard_locks\\{store="gcs",bucket="${TF}",prefix="",health="healthy"\\} 1`));
    expect(text).toMatch(
      new RegExp(`lockboard_locks\\{store="gcs",bucket="${CI}",prefix="locks/",health="healthy"\\} 0`),
    );
    expect(text).toMatch(/lockboard_force_releases_total\{outcome="released"\} 1/);
  });
});
