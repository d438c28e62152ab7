// Grants per lock on every route: the authorization matrix (route × role × in/out of scope × session/token), counts
// that reveal nothing outside the scope, a lock outside it answered as absent, releases refused with nothing touched,
// releasers only for expired locks, API tokens by hash (never in the URL), streams and audit only in scope, and the
// access file re-read on change (a malformed one refused, keeping the last good grants).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { acquireLock, getLock, type Lock } from '@/lib/lock';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { openStream } from '../helpers/stream';
import { writeRubyLock } from '../helpers/writers';

let t: Target;
let routes: Routes;
const held: Lock[] = [];
const dir = mkdtempSync(join(tmpdir(), 'lockboard-access-'));
const FILE = join(dir, 'access.yaml');

const OPS = 'ops@example.com'; // operator over every lock
const TEAM = 'lee@example.com'; // operator over ci/* through the group "ci"
const RELEASER = 'rel@example.com'; // releaser over ci/*
const ANN = 'ann@example.com'; // viewer over ci/*
const STRANGER = 'mallory@elsewhere.example';
const BOT = 'bot-token-0123456789abcdef'; // operator over ci/*
const READER = 'reader-token-0123456789abcdef'; // viewer over ci/*
const EXPIRED = 'expired-token-0123456789abcdef'; // expired yesterday
const NIA = 'nia@example.com'; // viewer of one lock of the locks/ source
const NARROW = 'narrow-token-0123456789abcdef'; // viewer of that one lock
const METRICS = 'metrics-token-0123456789';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const grants = (annLocks = "['gs://test-bucket/ci/*']") => `
grants:
  - who: [${OPS}]
    role: operator
    locks: ['*']
  - who: [group:ci]
    role: operator
    locks: ['gs://test-bucket/ci/*']
  - who: [${RELEASER}]
    role: releaser
    locks: ['gs://test-bucket/ci/*']
  - who: [${ANN}]
    role: viewer
    locks: ${annLocks}
  - who: [${NIA}]
    role: viewer
    locks: ['gs://test-bucket/locks/deploy']
tokens:
  - name: ci-bot
    sha256: ${sha(BOT)}
    role: operator
    locks: ['gs://test-bucket/ci/*']
  - name: ci-reader
    sha256: ${sha(READER)}
    role: viewer
    locks: ['gs://test-bucket/ci/*']
  - name: old-job
    sha256: ${sha(EXPIRED)}
    role: operator
    locks: ['*']
    expires: ${new Date(Date.now() - 86_400_000).toISOString()}
  - name: narrow
    sha256: ${sha(NARROW)}
    role: viewer
    locks: ['gs://test-bucket/locks/deploy']
`;

beforeAll(async () => {
  t = await startTestEmulator();
  writeFileSync(FILE, grants());
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_PREFIXES: 'locks/,ci/',
    LOCKBOARD_ACCESS_FILE: FILE,
    LOCKBOARD_METRICS_TOKEN: METRICS,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_SOURCES;
  delete process.env.LOCKBOARD_OPERATORS;
  delete process.env.LOCKBOARD_VIEWERS;
  routes = await importRoutes();
  for (const name of ['locks/deploy', 'locks/db-migrate', 'ci/build'])
    held.push(await acquireLock({ storage: t.storage, bucket: t.bucket, name, ttlMs: 60_000, identity: name }));
});
afterAll(async () => {
  await Promise.allSettled(held.map((l) => l.release()));
  await t.close();
});

type Who = { as?: string; groups?: string[]; bearer?: string };
const list = (who: Who, qs = 'source=all') => call(routes.locks.GET, `/api/locks?${qs}`, who);
const names = (r: { json: Record<string, unknown> }) => (r.json.locks as { name: string }[]).map((l) => l.name).sort();
const lockOf = (who: Who, name: string) => call(routes.lock.GET, `/api/locks/${name}`, who, { name: name.split('/') });
const release = (who: Who, body: Record<string, unknown>) =>
  call(routes.release.POST, '/api/locks/release', {
    ...who,
    method: 'POST',
    body: { reason: 'access test', acknowledgeAlive: true, ...body },
  });
const versionOf = (l: Lock) => `${l.generation}.${l.currentMetageneration}`;

describe('addresses', () => {
  it('writes every row’s address: the source as configured joined with the name', async () => {
    const r = await list({ as: OPS });
    expect(r.status).toBe(200);
    for (const l of r.json.locks as { name: string; address: string }[])
      expect(l.address).toBe(`gs://${t.bucket}/${l.name}`);
  });
});

describe('the list and the one query within the scope', () => {
  it('rows, total, matched and counts count only the locks in scope, by session, group or token', async () => {
    for (const who of [{ as: ANN }, { as: TEAM, groups: ['ci'] }, { bearer: READER }] as Who[]) {
      const r = await list(who);
      expect(r.status, JSON.stringify(who)).toBe(200);
      expect(names(r)).toEqual(['ci/build']);
      expect(r.json.total).toBe(1);
      expect(r.json.matched).toBe(1);
      const counts = r.json.counts as Record<string, number>;
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(1);
      expect((r.json.sources as { source: string }[]).map((s) => s.source)).toEqual([`gs://${t.bucket}/ci/`]);
    }
    const all = await list({ as: OPS });
    expect(all.json.total).toBe(3);
  });

  it('a source outside the scope is answered as one not configured, listing only the caller’s', async () => {
    const r = await list({ as: ANN }, `source=gs://${t.bucket}/locks/`);
    expect(r.status).toBe(400);
    expect((r.json.error as { message: string }).message).toMatch(/configured: gs:\/\/test-bucket\/ci\/ \(or/);
  });

  it('a grant-less identity and an unknown token get nothing (403 / 401)', async () => {
    expect((await list({ as: STRANGER })).status).toBe(403);
    expect((await list({ bearer: 'no-such-token-0123456789' })).status).toBe(401);
    expect((await list({ bearer: EXPIRED })).status).toBe(401);
  });
});

describe('counts within the scope, where it cuts a source', () => {
  // locks/deploy alone of the locks/ source: nothing says how many other keys that source holds
  const lean = (st: Record<string, unknown>) => {
    expect(st.listed).toBe(1);
    expect(st.skipped).toBe(0);
    expect(st).not.toHaveProperty('estimate');
    expect(st).not.toHaveProperty('skippedWhy');
  };

  it('a listing’s total, counts and sources[].listed count only the locks in scope', async () => {
    for (const who of [{ as: NIA }, { bearer: NARROW }] as Who[]) {
      const r = await list(who);
      expect(names(r)).toEqual(['locks/deploy']);
      expect(r.json.total).toBe(1);
      expect(r.json.skipped).toBe(0);
      const counts = r.json.counts as Record<string, number>;
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(1);
      const states = r.json.sources as Record<string, unknown>[];
      expect(states.map((st) => st.source)).toEqual([`gs://${t.bucket}/locks/`]);
      for (const st of states) lean(st);
    }
    // a reader of every lock is told every key walked
    const all = await list({ as: OPS }, `source=gs://${t.bucket}/locks/`);
    expect((all.json.sources as { listed: number }[])[0]!.listed).toBeGreaterThanOrEqual(2);
  });

  it('the stream’s snapshot and counts events count only the locks in scope', async () => {
    const s = await openStream(routes.stream.GET, NIA, { path: '/api/locks/stream' });
    const snapshot = await s.next('snapshot');
    expect(snapshot.total).toBe(1);
    for (const st of snapshot.sources as Record<string, unknown>[]) lean(st);
    // a change in scope (its holder refreshes it) sends counts: of the scope, each source's `listed` too
    await held[0]!.refresh();
    const counts = await s.next('counts', 15_000);
    expect(counts.total).toBe(1);
    for (const st of counts.sources as Record<string, unknown>[]) lean(st);
    s.close();
  });

  it('metrics: a scoped token gets its lock series only, no process-wide series; the metrics token gets all', async () => {
    const scoped = await call(routes.metrics.GET, '/api/metrics', { bearer: NARROW });
    expect(scoped.status).toBe(200);
    const held = [...scoped.text.matchAll(/^lockboard_locks\{[^}]*\} (\d+)$/gm)].map((m) => Number(m[1]));
    expect(held.reduce((a, b) => a + b, 0)).toBe(1);
    expect(scoped.text).not.toMatch(/lock="locks\/db-migrate"/);
    for (const series of [
      'lockboard_force_releases_total',
      'lockboard_streams',
      'lockboard_process_cpu',
      'lockboard_access_file_degraded',
    ])
      expect(scoped.text, series).not.toContain(series);
    const whole = await call(routes.metrics.GET, '/api/metrics', { bearer: METRICS });
    for (const series of ['lockboard_force_releases_total', 'lockboard_process_cpu', 'lockboard_access_file_degraded'])
      expect(whole.text, series).toContain(series);
    expect(whole.text).toMatch(/lock="locks\/db-migrate"/);
  });
});

describe('rows offer release only where the caller may release', () => {
  it('an operator’s rows are releasable, a viewer’s and a releaser’s live ones are not', async () => {
    const releasable = async (who: Who) =>
      ((await list(who)).json.locks as { name: string; releasable: boolean }[]).find((l) => l.name === 'ci/build')!
        .releasable;
    expect(await releasable({ as: OPS })).toBe(true);
    expect(await releasable({ bearer: BOT })).toBe(true);
    expect(await releasable({ as: RELEASER })).toBe(false);
    expect(await releasable({ as: ANN })).toBe(false);
  });
});

describe('one lock outside the scope is a lock that does not exist', () => {
  it('GET /api/locks/NAME answers exactly as for an absent lock', async () => {
    const out = await lockOf({ as: ANN }, 'locks/deploy');
    const none = await lockOf({ as: ANN }, 'locks/never-was');
    expect(out.status).toBe(200);
    const shape = (j: Record<string, unknown>) => ({ ...j, name: 'X', serverTime: 'T' });
    expect(shape(out.json)).toEqual(shape(none.json));
    expect(Object.keys(out.json).sort()).toEqual(['absent', 'bucket', 'name', 'serverTime']);
    const inside = await lockOf({ bearer: READER }, 'ci/build');
    expect(inside.json).toMatchObject({ name: 'ci/build', address: `gs://${t.bucket}/ci/build` });
  });
});

describe('release within the scope', () => {
  it('403 outside the caller’s grants, nothing touched (session and token alike)', async () => {
    const deploy = held[0]!;
    for (const who of [{ as: TEAM, groups: ['ci'] }, { bearer: BOT }, { as: RELEASER }] as Who[]) {
      const r = await release(who, { name: 'locks/deploy', version: versionOf(deploy) });
      expect(r.status, JSON.stringify(who)).toBe(403);
    }
    expect(await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/deploy' })).not.toBeNull();
  });

  it('a viewer token may not release at all; a batch with one lock outside refuses the whole batch', async () => {
    expect((await release({ bearer: READER }, { name: 'ci/build', version: versionOf(held[2]!) })).status).toBe(403);
    const batch = await call(routes.batch.POST, '/api/locks/release-batch', {
      bearer: BOT,
      method: 'POST',
      body: {
        reason: 'batch',
        locks: [
          { name: 'ci/build', version: versionOf(held[2]!) },
          { name: 'locks/db-migrate', version: versionOf(held[1]!) },
        ],
      },
    });
    expect(batch.status).toBe(403);
    expect(batch.json.outside).toEqual([`gs://${t.bucket}/locks/db-migrate`]);
    expect(await getLock({ storage: t.storage, bucket: t.bucket, name: 'ci/build' })).not.toBeNull();
  });

  it('a releaser clears an expired lock in scope, not a healthy one', async () => {
    const healthy = await release({ as: RELEASER }, { name: 'ci/build', version: versionOf(held[2]!) });
    expect(healthy.status).toBe(403);
    expect((healthy.json.error as { message: string }).message).toMatch(/only once it has expired/);
    const stale = await writeRubyLock(t.storage, t.bucket, 'ci/stale', 10, Date.now() - 3_600_000);
    const r = await release(
      { as: RELEASER },
      { name: 'ci/stale', version: `${stale.generation}.${stale.metageneration}` },
    );
    expect(r.status, JSON.stringify(r.json)).toBe(200);
  });

  it('a token releases in scope without an Origin, named as the actor in the audit trail; never from the URL', async () => {
    const lock = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'ci/job',
      ttlMs: 60_000,
      audit: false,
    });
    const r = await release({ bearer: BOT }, { name: 'ci/job', version: versionOf(lock) });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const [files] = await t.storage.bucket(t.bucket).getFiles({ prefix: '.lockboard/audit/' });
    const events = files.map((f) => f.metadata.metadata as Record<string, string>);
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'force-released', lock: 'ci/job', operator: 'ci-bot' }),
    );
    const inUrl = await call(routes.locks.GET, `/api/locks?access_token=${BOT}`, {});
    expect(inUrl.status).toBe(400);
    expect((inUrl.json.error as { message: string }).message).toMatch(/Authorization: Bearer/);
  });
});

describe('audit, CSV, churn and metrics within the scope', () => {
  it('the audit trail, its CSV and the summary hold only locks in scope', async () => {
    const a = await call(routes.audit.GET, '/api/audit', { as: ANN });
    expect(a.status).toBe(200);
    const locks = (a.json.events as { lock: string }[]).map((e) => e.lock);
    expect(locks.length).toBeGreaterThan(0);
    expect(locks.every((l) => l.startsWith('ci/'))).toBe(true);
    const everything = await call(routes.audit.GET, '/api/audit', { as: OPS });
    expect((everything.json.events as { lock: string }[]).some((e) => e.lock.startsWith('locks/'))).toBe(true);
    const csv = await call(routes.audit.GET, '/api/audit?format=csv', { bearer: READER });
    expect(csv.text).not.toMatch(/locks\/deploy|locks\/db-migrate/);
    const summary = await call(routes.summary.GET, '/api/audit/summary', { as: ANN });
    expect(JSON.stringify(summary.json)).not.toMatch(/locks\/deploy|locks\/db-migrate/);
  });

  it('an API token scrapes only its own locks’ series', async () => {
    const r = await call(routes.metrics.GET, '/api/metrics', { bearer: READER });
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/ci\/build/);
    // the per-lock series and the per-source counts (process-wide gauges such as the watch feed are not lock data)
    expect(r.text).not.toMatch(/lock="locks\//);
    expect(r.text).not.toMatch(/lockboard_locks\{[^}]*prefix="locks\/"/);
  });
});

describe('streams within the scope', () => {
  it('the list stream never sends a lock outside the scope, and its counts count only the scope', async () => {
    const s = await openStream(routes.stream.GET, ANN, { path: '/api/locks/stream?source=all' });
    const snapshot = await s.next('snapshot');
    expect((snapshot.locks as { name: string }[]).map((l) => l.name)).toEqual(['ci/build']);
    const sent = s.all.length;
    const outside = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/new', ttlMs: 60_000 });
    held.push(outside);
    // a change outside the scope sends no row, and no counts of it
    for (let i = 0; i < 150 && !names(await list({ as: OPS })).includes('locks/new'); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(names(await list({ as: OPS }))).toContain('locks/new'); // the watcher has seen it
    await new Promise((r) => setTimeout(r, 1_500)); // counts are sent at most once a second
    // no row of it, and counts (if any are sent) of the scope alone
    // (ci/build, in scope, may be pushed meanwhile: its holder refreshes it every 7.5 s; a tick carries no lock)
    const rowsSent = s.all.slice(sent).filter((e) => e.event !== 'counts' && e.event !== 'tick');
    expect(JSON.stringify(rowsSent)).not.toMatch(/locks\//);
    expect(
      rowsSent.every((e) => e.event === 'change'),
      JSON.stringify(rowsSent),
    ).toBe(true);
    for (const e of s.all.slice(sent)) if (e.event === 'counts') expect(e.data.total).toBe(1);
    const inside = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'ci/new', ttlMs: 60_000 });
    held.push(inside);
    await s.shown('ci/new', 15_000);
    const counts = await s.next('counts', 5_000);
    expect(counts.total).toBe(2);
    expect(JSON.stringify(s.all)).not.toMatch(/locks\/(new|deploy|db-migrate)/);
    s.close();
  });

  it('the lock stream of a lock outside the scope streams it as absent', async () => {
    const s = await openStream(routes.lockStream.GET as never, ANN, { path: '/api/lock-stream?name=locks/deploy' });
    const lock = await s.next('lock');
    expect(lock).toMatchObject({ name: 'locks/deploy', absent: true });
    expect(Object.keys(lock).sort()).toEqual(['absent', 'bucket', 'name', 'serverTime']);
    s.close();
  });
});

describe('the access file re-read', () => {
  it('a changed file applies without a restart; a malformed one is refused, keeping the last good grants', async () => {
    onTestFinished(async () => {
      writeFileSync(FILE, grants()); // the next tests' grants, whatever happens here
      await new Promise((r) => setTimeout(r, 1_100));
    });
    writeFileSync(FILE, grants("['*']"));
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await list({ as: ANN })).json.total).toBe(5);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    writeFileSync(FILE, grants("['*']").replace('role: viewer', 'role: admin'));
    await new Promise((r) => setTimeout(r, 1_100));
    const r = await list({ as: ANN });
    expect(r.status).toBe(200);
    expect(r.json.total).toBe(5);
    expect(errors.mock.calls.flat().join(' ')).toMatch(
      /access\.yaml:\d+: grants\.3\.role must be one of viewer, releaser, operator/,
    );
    errors.mockRestore();
    writeFileSync(FILE, grants());
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await list({ as: ANN })).json.total).toBe(2);
  });
});

describe('the authorization matrix: every route × role × in / out of scope × session / token', () => {
  const callers: [string, Who | null][] = [
    ['anonymous', null],
    ['no grant', { as: STRANGER }],
    ['operator everywhere', { as: OPS }],
    ['team operator (group)', { as: TEAM, groups: ['ci'] }],
    ['team releaser', { as: RELEASER }],
    ['team viewer', { as: ANN }],
    ['team operator token', { bearer: BOT }],
    ['team viewer token', { bearer: READER }],
  ];
  // reads: 401 anonymous, 403 without a grant, 200 otherwise, in scope or not (out of scope: nothing of it shown)
  const reads = (): [string, (who: Who) => Promise<{ status: number; text: string }>][] => [
    ['GET /api/locks', (w) => list(w)],
    ['GET /api/locks/NAME in', (w) => lockOf(w, 'ci/build')],
    ['GET /api/locks/NAME out', (w) => lockOf(w, 'locks/deploy')],
    ['GET /api/audit', (w) => call(routes.audit.GET, '/api/audit', w)],
    ['GET /api/audit/summary', (w) => call(routes.summary.GET, '/api/audit/summary', w)],
  ];
  // a release of a live lock outside the team's scope (version wrong on purpose: a permitted one answers 409)
  const outside = (w: Who) => release(w, { name: 'locks/deploy', version: '1.1' });
  const inside = (w: Who) => release(w, { name: 'ci/build', version: '1.1' });

  it('reads', async () => {
    for (const [name, who] of callers)
      for (const [route, run] of reads()) {
        const r = await run(who ?? {});
        const expected = who === null ? 401 : name === 'no grant' ? 403 : 200;
        expect(r.status, `${route} as ${name}`).toBe(expected);
        const seesAll = name === 'operator everywhere';
        if (expected === 200 && !seesAll && !route.startsWith('GET /api/audit'))
          expect(r.text, `${route} as ${name}`).not.toMatch(/"identity":"locks\/deploy"/);
      }
  });

  it('releases', async () => {
    const expect403or409 = { in: new Map<string, number>(), out: new Map<string, number>() };
    for (const [name, who] of callers) {
      expect403or409.out.set(name, (await outside(who ?? {})).status);
      expect403or409.in.set(name, (await inside(who ?? {})).status);
    }
    expect(Object.fromEntries(expect403or409.out)).toEqual({
      anonymous: 401,
      'no grant': 403,
      'operator everywhere': 409,
      'team operator (group)': 403,
      'team releaser': 403,
      'team viewer': 403,
      'team operator token': 403,
      'team viewer token': 403,
    });
    expect(Object.fromEntries(expect403or409.in)).toEqual({
      anonymous: 401,
      'no grant': 403,
      'operator everywhere': 409,
      'team operator (group)': 409,
      'team releaser': 403, // live: a releaser clears only an expired or gone lock
      'team viewer': 403,
      'team operator token': 409,
      'team viewer token': 403,
    });
    expect(await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/deploy' })).not.toBeNull();
    expect(await getLock({ storage: t.storage, bucket: t.bucket, name: 'ci/build' })).not.toBeNull();
  });
});

describe('configuration routes', () => {
  it('webhooks need the operator role over every lock, not over one team’s', async () => {
    const webhooks = await import('@/app/api/webhooks/route');
    expect((await call(webhooks.GET, '/api/webhooks', { as: TEAM, groups: ['ci'] })).status).toBe(403);
    expect((await call(webhooks.GET, '/api/webhooks', { bearer: BOT })).status).toBe(403);
    expect((await call(webhooks.GET, '/api/webhooks', { as: OPS })).status).toBe(200);
  });
});
