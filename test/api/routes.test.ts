// Route handlers called directly against the emulator: shapes, the authorisation matrix, validation, conflicts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, getLock, type Lock } from '@/lib/lock';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { writeTerraformLock, writeTerraformState } from '../helpers/writers';

let t: Target;
let routes: Routes;
let held: Lock;

const OPERATOR = 'ops@example.com';
const VIEWER = 'dev@viewers.example';
const OUTSIDER = 'mallory@elsewhere.example';

beforeAll(async () => {
  t = await startTestEmulator();
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_PREFIXES: 'locks/,ci/',
    LOCKBOARD_OPERATORS: OPERATOR,
    LOCKBOARD_VIEWERS: '@viewers.example',
    LOCKBOARD_METRICS_TOKEN: 'metrics-token-0123456789',
    NEXTAUTH_SECRET: SECRET,
  });
  routes = await importRoutes();
  held = await acquireLock({
    storage: t.storage,
    bucket: t.bucket,
    name: 'locks/deploy',
    identity: 'runner-1',
    purpose: 'deploy prod',
    ttlMs: 60_000,
  });
});
afterAll(async () => {
  await held.release();
  await t.close();
});

describe('GET /api/locks', () => {
  it('lists the locks under a configured prefix with health, expiry, generation and server time', async () => {
    const r = await call(routes.locks.GET, '/api/locks?prefix=locks/', { as: VIEWER });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.json.prefix).toBe('locks/');
    expect(Date.parse(r.json.serverTime as string)).toBeGreaterThan(0);
    const lock = (r.json.locks as Record<string, unknown>[]).find((l) => l.name === 'locks/deploy')!;
    expect(lock).toMatchObject({
      identity: 'runner-1',
      purpose: 'deploy prod',
      health: 'healthy',
      format: 'lockboard',
      generation: held.generation,
    });
    expect(typeof lock.metageneration).toBe('string');
    expect(typeof lock.expiresAt).toBe('string');
  });

  it('filters by health and by text', async () => {
    const healthy = await call(routes.locks.GET, '/api/locks?prefix=locks/&health=expired', { as: VIEWER });
    expect(healthy.json.locks).toEqual([]);
    const text = await call(routes.locks.GET, '/api/locks?prefix=locks/&q=PROD', { as: VIEWER });
    expect((text.json.locks as unknown[]).length).toBe(1);
  });

  it('refuses a prefix that is not configured, naming the allowed ones', async () => {
    const r = await call(routes.locks.GET, '/api/locks?prefix=secrets/', { as: VIEWER });
    expect(r.status).toBe(400);
    expect((r.json.error as { message: string }).message).toMatch(
      /not configured; configured: gs:\/\/test-bucket\/locks\/, gs:\/\/test-bucket\/ci\//,
    );
  });

  it('refuses an unknown health value', async () => {
    const r = await call(routes.locks.GET, '/api/locks?health=sleepy', { as: VIEWER });
    expect(r.status).toBe(400);
    expect((r.json.error as { message: string }).message).toMatch(/^health:/);
  });
});

describe('GET /api/locks/<name>', () => {
  it('returns one lock, an absent marker when free, 400 outside the prefixes', async () => {
    const ok = await call(routes.lock.GET, '/api/locks/locks/deploy', { as: VIEWER }, { name: ['locks', 'deploy'] });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ name: 'locks/deploy', identity: 'runner-1' });
    const free = await call(routes.lock.GET, '/api/locks/locks/free', { as: VIEWER }, { name: ['locks', 'free'] });
    expect(free.status).toBe(200);
    expect(free.json).toMatchObject({ name: 'locks/free', bucket: 'test-bucket', absent: true });
    expect(Date.parse(free.json.serverTime as string)).toBeGreaterThan(0);
    const outside = await call(routes.lock.GET, '/api/locks/other/x', { as: VIEWER }, { name: ['other', 'x'] });
    expect(outside.status).toBe(400);
  });
});

describe('authorisation matrix', () => {
  const readRoutes = () =>
    [
      ['GET /api/locks', routes.locks.GET, '/api/locks', {}],
      ['GET /api/locks/<name>', routes.lock.GET, '/api/locks/locks/deploy', { name: ['locks', 'deploy'] }],
      ['GET /api/audit', routes.audit.GET, '/api/audit', {}],
      ['GET /api/audit/summary', routes.summary.GET, '/api/audit/summary', {}],
    ] as const;
  const releaseBody = () => ({ name: 'locks/none', generation: '1', acknowledgeAlive: true, reason: 'matrix' });

  it('answers 401 to anonymous requests on every route', async () => {
    for (const [what, handler, path, params] of readRoutes()) {
      const r = await call(handler as never, path, {}, params);
      expect(r.status, what).toBe(401);
    }
    const r = await call(routes.release.POST, '/api/locks/release', { method: 'POST', body: releaseBody() });
    expect(r.status).toBe(401);
  });

  it('answers 403 to a signed-in account that is on no list (fail closed)', async () => {
    for (const [what, handler, path, params] of readRoutes()) {
      const r = await call(handler as never, path, { as: OUTSIDER }, params);
      expect(r.status, what).toBe(403);
    }
  });

  it('lets viewers read but not force-release (403)', async () => {
    for (const [what, handler, path, params] of readRoutes()) {
      const r = await call(handler as never, path, { as: VIEWER }, params);
      expect(r.status, what).toBe(200);
    }
    const r = await call(routes.release.POST, '/api/locks/release', {
      as: VIEWER,
      method: 'POST',
      body: releaseBody(),
    });
    expect(r.status).toBe(403);
    expect((r.json.error as { message: string }).message).toMatch(/needs the releaser role/);
  });

  it('lets operators read and force-release', async () => {
    for (const [what, handler, path, params] of readRoutes()) {
      const r = await call(handler as never, path, { as: OPERATOR }, params);
      expect(r.status, what).toBe(200);
    }
    const r = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: releaseBody(),
    });
    expect(r.status).toBe(410);
  });

  it('does not trust X-Forwarded-Host for the same-origin check', async () => {
    const forged = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: releaseBody(),
      headers: { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(forged.status).toBe(403);
  });

  it('refuses cross-origin mutations, even from an operator', async () => {
    const cross = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: releaseBody(),
      headers: { origin: 'https://evil.example' },
    });
    expect(cross.status).toBe(403);
    expect((cross.json.error as { message: string }).message).toMatch(/Cross-origin/);
    const none = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: releaseBody(),
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(none.status).toBe(403);
  });
});

describe('POST /api/locks/release validation', () => {
  const post = (body: unknown, extra: { rawBody?: string; headers?: Record<string, string> } = {}) =>
    call(routes.release.POST, '/api/locks/release', { as: OPERATOR, method: 'POST', body, ...extra });
  const cases: [string, unknown, number, RegExp][] = [
    ['a missing reason', { name: 'locks/x', generation: '1' }, 400, /^reason:/],
    [
      'a blank reason',
      { name: 'locks/x', generation: '1', acknowledgeAlive: true, reason: '   ' },
      400,
      /reason: is required/,
    ],
    [
      'a non-numeric generation',
      { name: 'locks/x', generation: '12abc', acknowledgeAlive: true, reason: 'r' },
      400,
      /generation: must be a decimal integer string/,
    ],
    [
      'a numeric (not string) generation',
      { name: 'locks/x', generation: 12, acknowledgeAlive: true, reason: 'r' },
      400,
      /generation/,
    ],
    [
      'a name outside the prefixes',
      { name: 'secrets/x', generation: '1', acknowledgeAlive: true, reason: 'r' },
      400,
      /not inside a configured source/,
    ],
    [
      'an over-long name',
      { name: 'locks/' + 'x'.repeat(1100), generation: '1', acknowledgeAlive: true, reason: 'r' },
      400,
      /name: must be at most 1024/,
    ],
  ];
  for (const [what, body, status, message] of cases) {
    it(`answers ${status} for ${what}`, async () => {
      const r = await post(body);
      expect(r.status).toBe(status);
      expect((r.json.error as { message: string }).message).toMatch(message);
    });
  }

  it('answers 400 for malformed JSON, 415 for a non-JSON body and 413 for an oversized one', async () => {
    expect((await post(undefined, { rawBody: '{bad', headers: { 'content-type': 'application/json' } })).status).toBe(
      400,
    );
    expect(
      (await post(undefined, { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }))
        .status,
    ).toBe(415);
    const big = JSON.stringify({
      name: 'locks/x',
      generation: '1',
      acknowledgeAlive: true,
      reason: 'r'.repeat(20_000),
    });
    expect((await post(undefined, { rawBody: big, headers: { 'content-type': 'application/json' } })).status).toBe(413);
  });
});

describe('force-release outcomes', () => {
  it('releases by { source, name, version, reason }, the one request shape of every store', async () => {
    const lock = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/shaped',
      ttlMs: 60_000,
      audit: false,
    });
    const body = (source: string) => ({
      source,
      name: 'locks/shaped',
      version: `${lock.generation}.${lock.currentMetageneration}`,
      acknowledgeAlive: true, // its holder refreshes: alive
      reason: 'runner died',
    });
    const unknown = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: body('gs://nowhere/locks/'),
    });
    expect(unknown.status).toBe(400);
    expect(await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/shaped' })).not.toBeNull();
    const r = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: body(`gs://${t.bucket}/locks/`),
    });
    expect(r.status).toBe(200);
    expect(await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/shaped' })).toBeNull();
  });

  it('releases the generation seen, writes an audit event with operator and reason', async () => {
    const lock = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/stuck',
      ttlMs: 60_000,
      audit: false,
    });
    const r = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: {
        name: 'locks/stuck',
        generation: lock.generation,
        metageneration: lock.currentMetageneration,
        acknowledgeAlive: true,
        reason: 'runner died',
      },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ outcome: 'released', confirmed: true, message: 'Released.' });
    const audit = r.json.audit as { attempt: string; outcome: string };
    expect(audit.attempt < audit.outcome).toBe(true); // names sort by time: the attempt was written first
    expect(await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/stuck' })).toBeNull();
    const [files] = await t.storage.bucket(t.bucket).getFiles({ prefix: '.lockboard/audit/' });
    const events = files.map((f) => f.metadata.metadata as Record<string, string>);
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'force-released',
        lock: 'locks/stuck',
        operator: OPERATOR,
        reason: 'runner died',
        generation: lock.generation,
      }),
    );
  });

  it('answers 409 changed with the successor when the lock changed hands, and deletes nothing', async () => {
    const first = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/handover',
      ttlMs: 60_000,
      audit: false,
    });
    await first.release();
    const second = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/handover',
      identity: 'successor',
      ttlMs: 60_000,
      audit: false,
    });
    const r = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { name: 'locks/handover', generation: first.generation, acknowledgeAlive: true, reason: 'stale view' },
    });
    expect(r.status).toBe(409);
    expect(r.json.outcome).toBe('changed');
    expect((r.json.current as { identity: string }).identity).toBe('successor');
    expect((await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/handover' }))?.generation).toBe(
      second.generation,
    );
    await second.release();
  });

  it('answers 409 refreshed when the holder refreshed since it was viewed', async () => {
    const lock = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/alive',
      ttlMs: 60_000,
      audit: false,
    });
    const seen = lock.currentMetageneration;
    await lock.refresh();
    const r = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: {
        name: 'locks/alive',
        generation: lock.generation,
        metageneration: seen,
        acknowledgeAlive: true,
        reason: 'x',
      },
    });
    expect(r.status).toBe(409);
    expect(r.json.outcome).toBe('refreshed');
    expect((r.json.current as { metageneration: string }).metageneration).toBe(lock.currentMetageneration);
    await lock.release();
  });
});

describe('POST /api/locks/release-batch', () => {
  it('releases each lock at the generation seen; one that changed hands since the preview survives', async () => {
    const opts = (name: string) => ({
      storage: t.storage,
      bucket: t.bucket,
      name,
      ttlMs: 60_000,
      audit: false as const,
    });
    const a = await acquireLock(opts('locks/batch-a'));
    const b = await acquireLock(opts('locks/batch-b'));
    const seenB = { generation: b.generation, metageneration: b.currentMetageneration };
    // between preview and confirm: b is released and taken by someone else
    await b.release();
    const successor = await acquireLock({ ...opts('locks/batch-b'), identity: 'successor' });
    const r = await call(routes.batch.POST, '/api/locks/release-batch', {
      as: OPERATOR,
      method: 'POST',
      body: {
        reason: 'runner pool died',
        locks: [
          {
            name: 'locks/batch-a',
            generation: a.generation,
            metageneration: a.currentMetageneration,
            acknowledgeAlive: true,
          },
          { name: 'locks/batch-b', ...seenB, acknowledgeAlive: true },
          { name: 'locks/batch-gone', generation: '1' },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ released: 1, refused: 2 });
    const results = r.json.results as { name: string; outcome: string; current?: { identity: string } }[];
    expect(results.map((x) => [x.name, x.outcome])).toEqual([
      ['locks/batch-a', 'released'],
      ['locks/batch-b', 'changed'],
      ['locks/batch-gone', 'gone'],
    ]);
    expect(results[1]!.current?.identity).toBe('successor');
    expect((await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/batch-b' }))?.generation).toBe(
      successor.generation,
    );
    await successor.release();
    await a.release();
  });

  it('refuses viewers, empty or oversized batches and a missing reason with a clear 4xx', async () => {
    const lock = { name: 'locks/x', generation: '5' };
    const cases: [string | undefined, unknown, number, RegExp][] = [
      [VIEWER, { reason: 'r', locks: [lock] }, 403, /needs the releaser role/i],
      [OPERATOR, { reason: 'r', locks: [] }, 400, /at least one lock/],
      [
        OPERATOR,
        { reason: 'r', locks: Array.from({ length: 101 }, (_, i) => ({ ...lock, name: `locks/x${i}` })) },
        400,
        /at most 100/,
      ],
      [OPERATOR, { locks: [lock] }, 400, /reason/],
    ];
    for (const [as, body, status, message] of cases) {
      const r = await call(routes.batch.POST, '/api/locks/release-batch', { as, method: 'POST', body });
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect((r.json.error as { message: string }).message).toMatch(message);
    }
  });
});

describe('objects that are not locks', () => {
  it('never lists a Terraform state file as a lock and refuses to release it (422), deleting nothing', async () => {
    const state = await writeTerraformState(t.storage, t.bucket, 'ci/prod/default.tfstate');
    const tflock = await writeTerraformLock(t.storage, t.bucket, 'ci/prod/default.tfstate', 'ann@laptop');
    const list = await call(routes.locks.GET, '/api/locks?prefix=ci/', { as: VIEWER });
    expect(list.status).toBe(200);
    const locks = list.json.locks as { name: string; format: string; bucket: string; identity: string }[];
    expect(locks.map((l) => [l.name, l.format, l.bucket, l.identity])).toEqual([
      ['ci/prod/default.tflock', 'terraform', t.bucket, 'ann@laptop'],
    ]);
    expect(list.json.skipped).toBe(1);
    const r = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: {
        name: 'ci/prod/default.tfstate',
        generation: state.generation,
        acknowledgeAlive: true,
        reason: 'cleanup',
      },
    });
    expect(r.status).toBe(422);
    expect(r.json.outcome).toBe('not-a-lock');
    expect((await t.storage.bucket(t.bucket).file('ci/prod/default.tfstate').exists())[0]).toBe(true);
    await t.storage
      .bucket(t.bucket)
      .file('ci/prod/default.tflock')
      .delete({ ifGenerationMatch: Number(tflock.generation) });
    await t.storage.bucket(t.bucket).file('ci/prod/default.tfstate').delete();
  });
});

describe('storage failures', () => {
  it('answers 503 audit_unavailable and deletes nothing when the attempt cannot be recorded', async () => {
    const lock = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/unaudited', audit: false });
    t.emulator!.faults.set({ rules: [{ method: 'POST', errorRate: 1, errorStatus: 503 }] });
    try {
      const r = await call(routes.release.POST, '/api/locks/release', {
        as: OPERATOR,
        method: 'POST',
        body: { name: 'locks/unaudited', generation: lock.generation, acknowledgeAlive: true, reason: 'runner died' },
      });
      expect(r.status).toBe(503);
      expect(r.json).toMatchObject({ error: { code: 'audit_unavailable' }, deleted: false });
      expect((r.json.error as { message: string }).message).toMatch(/Nothing was deleted/);
    } finally {
      t.emulator!.faults.clear();
    }
    expect((await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/unaudited' }))?.generation).toBe(
      lock.generation,
    );
    await lock.release();
  });

  it('answers 503 storage_unavailable with a retry hint once GCS fails its listing', async () => {
    t.emulator!.faults.set({ rules: [{ method: 'GET', errorRate: 1, errorStatus: 503 }] });
    try {
      // the index answers from its last good listing until the store's pass fails (after the client's retries)
      let r = await call(routes.locks.GET, '/api/locks?prefix=ci/', { as: VIEWER });
      for (let i = 0; i < 120 && r.status === 200; i++) {
        await new Promise((done) => setTimeout(done, 250));
        r = await call(routes.locks.GET, '/api/locks?prefix=ci/', { as: VIEWER });
      }
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('2');
      expect((r.json.error as { code: string }).code).toBe('storage_unavailable');
    } finally {
      t.emulator!.faults.clear();
    }
  });
});

describe('health and metrics', () => {
  it('answers /api/health without a session or details', async () => {
    const r = await routes.health.GET();
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 'ok' });
  });

  it('requires the bearer token for /api/metrics and reports lock counts by prefix and health', async () => {
    const anonymous = await routes.metrics.GET(new Request('http://console.test/api/metrics'));
    expect(anonymous.status).toBe(401);
    const ok = await routes.metrics.GET(
      new Request('http://console.test/api/metrics', { headers: { authorization: 'Bearer metrics-token-0123456789' } }),
    );
    expect(ok.status).toBe(200);
    const text = await ok.text();
    expect(text).toMatch(/lockboard_locks\{store="gcs",bucket="test-bucket",prefix="locks\/",health="healthy"\} [1-9]/);
    expect(text).toMatch(
      /lockboard_lock_seconds_since_refresh\{store="gcs",bucket="test-bucket",prefix="locks\/",lock="locks\/deploy",format="lockboard",health="healthy"\} \d/,
    );
    expect(text).toMatch(/lockboard_force_releases_total\{outcome="released"\} [1-9]/);
    expect(text).toMatch(/lockboard_store_lists_total\{store="gcs",source="gs:\/\/test-bucket\/locks\/"\} [1-9]/);
    expect(text).toMatch(/lockboard_list_duration_seconds_count\{store="gcs"\} [1-9]/);
    expect(text).toMatch(/lockboard_source_up\{store="gcs",bucket="test-bucket",prefix="locks\/"\} 1/);
    expect(text).toMatch(/lockboard_process_resident_memory_bytes \d/);
  });
});

describe('GET /api/audit and /api/audit/summary', () => {
  it('refuses windows over 31 days, reversed windows and malformed times with 400', async () => {
    const cases: [string, RegExp][] = [
      ['/api/audit?from=2026-01-01T00:00:00Z&to=2026-02-05T00:00:00Z', /at most 31 days/],
      ['/api/audit?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', /"from" must be before "to"/],
      ['/api/audit?from=yesterday', /from: must be an ISO 8601 time/],
      ['/api/audit?event=exploded', /^event:/],
    ];
    for (const [path, message] of cases) {
      const r = await call(routes.audit.GET, path, { as: VIEWER });
      expect(r.status, path).toBe(400);
      expect((r.json.error as { message: string }).message).toMatch(message);
    }
  });

  it('returns only events of locks inside the configured prefixes, and refuses a lock outside them', async () => {
    const outside = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'secret/x',
      identity: 'hidden-holder',
    });
    await outside.release();
    const list = await call(routes.audit.GET, '/api/audit', { as: VIEWER });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.json)).not.toContain('hidden-holder');
    const summary = await call(routes.summary.GET, '/api/audit/summary', { as: VIEWER });
    expect(JSON.stringify(summary.json)).not.toContain('secret/x');
    const one = await call(routes.audit.GET, '/api/audit?lock=secret/x', { as: VIEWER });
    expect(one.status).toBe(400);
  });

  it('costs no new listing when a window is shifted by a millisecond', async () => {
    const to = Date.now();
    const window = (shift: number) =>
      `/api/audit?from=${new Date(to - 3_600_000 + shift).toISOString()}&to=${new Date(to + shift).toISOString()}`;
    await call(routes.audit.GET, window(0), { as: VIEWER });
    t.emulator!.requests.clear();
    for (let shift = 1; shift <= 20; shift++)
      expect((await call(routes.audit.GET, window(shift), { as: VIEWER })).status).toBe(200);
    expect(t.emulator!.requests.count((e) => e.method === 'GET' && e.path.endsWith('/o'))).toBe(0);
  });

  it('returns the events of the window newest first, and the summary, and CSV', async () => {
    const list = await call(routes.audit.GET, '/api/audit', { as: VIEWER });
    const events = list.json.events as { at: string; event: string }[];
    expect(events.length).toBeGreaterThan(0);
    expect([...events].sort((a, b) => (a.at < b.at ? 1 : -1)).map((e) => e.at)).toEqual(events.map((e) => e.at));
    const summary = await call(routes.summary.GET, '/api/audit/summary', { as: VIEWER });
    expect(summary.json.total).toBe(list.json.total);
    // a 24 h window not aligned to the hour touches 25 hour buckets
    expect((summary.json.perHour as unknown[]).length).toBe(
      new Date().getUTCMinutes() === 0 && new Date().getUTCSeconds() === 0 ? 24 : 25,
    );
    const csv = await call(routes.audit.GET, '/api/audit?format=csv', { as: VIEWER });
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.text.split('\n')[0]).toMatch(/^at,source,event,lock/);
  });
});
