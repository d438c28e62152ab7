// Revocation takes effect (#57): a token or person removed from a valid access file is refused at the next request
// after the file check (ACCESS_CHECK_MS, 1 s), an open stream ends within a second of it, a deleted file withdraws
// its grants and tokens at once, and a file that cannot be used keeps the last good grants only for
// LOCKBOARD_ACCESS_GRACE (degraded in /api/health and the metric meanwhile), then fails closed. The grace is measured
// by an injected clock: nothing sleeps five minutes.
import { mkdtempSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { acquireLock, type Lock } from '@/lib/lock';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { openStream } from '../helpers/stream';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { AccessFileNotice } from '@/components/access-file-notice';

let t: Target;
let routes: Routes;
let held: Lock;
let access: typeof import('@/lib/server/auth/access-file');
const dir = mkdtempSync(join(tmpdir(), 'lockboard-revoke-'));
const FILE = join(dir, 'access.yaml');
const METRICS = 'metrics-token-0123456789';
const BOT = 'bot-token-0123456789abcdef';
const OTHER = 'other-token-0123456789abcdef';
const ANN = 'ann@example.com';
const BEN = 'ben@example.com';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const file = (o: { bot?: boolean; ann?: boolean } = {}) => `
grants:
  - who: [${BEN}]
    role: viewer
    locks: ['*']
${o.ann === false ? '' : `  - who: [${ANN}]\n    role: viewer\n    locks: ['*']\n`}tokens:
  - name: other
    sha256: ${sha(OTHER)}
    role: viewer
    locks: ['*']
${o.bot === false ? '' : `  - name: bot\n    sha256: ${sha(BOT)}\n    role: viewer\n    locks: ['*']\n`}`;

// the clock the file's check and its grace are measured by
let now = Date.now();
const later = (ms: number) => (now += ms);

beforeAll(async () => {
  t = await startTestEmulator();
  writeFileSync(FILE, file());
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_PREFIXES: 'locks/',
    LOCKBOARD_ACCESS_FILE: FILE,
    LOCKBOARD_METRICS_TOKEN: METRICS,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_SOURCES;
  delete process.env.LOCKBOARD_OPERATORS;
  delete process.env.LOCKBOARD_VIEWERS;
  delete process.env.LOCKBOARD_ACCESS_GRACE;
  routes = await importRoutes();
  access = await import('@/lib/server/auth/access-file');
  access.setAccessClock(() => now);
  held = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/a', ttlMs: 60_000 });
});
afterAll(async () => {
  access.setAccessClock();
  await held.release();
  await t.close();
});
afterEach(() => {
  writeFileSync(FILE, file());
  later(access.ACCESS_CHECK_MS);
  vi.restoreAllMocks();
});

const list = (who: { bearer?: string; as?: string }) => call(routes.locks.GET, '/api/locks', who);
const health = async () => (await call(routes.health.GET as never, '/api/health')).json.status;
const degraded = async () =>
  (await call(routes.metrics.GET as never, '/api/metrics', { bearer: METRICS })).text
    .split('\n')
    .filter((l) => l.startsWith('lockboard_access_file_degraded{') && l.endsWith(' 1'));
/** The notice every page an operator sees carries (app/(console)/layout.tsx), as it renders now. */
const notice = () => renderToStaticMarkup(createElement(AccessFileNotice, { state: access.accessFileState() }));
const quiet = () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
};

describe('a token or person removed from a valid file', () => {
  it('is refused at the next request once the file is checked again (at most ACCESS_CHECK_MS, 1 s)', async () => {
    quiet();
    expect(access.ACCESS_CHECK_MS).toBe(1_000);
    expect((await list({ bearer: BOT })).status).toBe(200);
    expect((await list({ as: ANN })).status).toBe(200);
    writeFileSync(FILE, file({ bot: false, ann: false }));
    later(access.ACCESS_CHECK_MS);
    expect((await list({ bearer: BOT })).status).toBe(401);
    expect((await list({ as: ANN })).status).toBe(403);
    // the others keep theirs
    expect((await list({ bearer: OTHER })).status).toBe(200);
    expect((await list({ as: BEN })).status).toBe(200);
    expect(await health()).toBe('ok');
  });

  it('ends an open stream of that token within a second', async () => {
    quiet();
    const s = await openStream(routes.stream.GET, '', { bearer: BOT });
    await s.next('snapshot');
    writeFileSync(FILE, file({ bot: false }));
    later(access.ACCESS_CHECK_MS);
    const deadline = Date.now() + 2_500;
    while (!s.ended() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(s.ended()).toBe(true);
    await s.close();
  });
});

describe('a deleted access file', () => {
  it('withdraws its grants and tokens at once, says so, and gives them back when the file is back', async () => {
    quiet();
    unlinkSync(FILE);
    later(access.ACCESS_CHECK_MS);
    expect((await list({ bearer: BOT })).status).toBe(401);
    expect((await list({ as: BEN })).status).toBe(403);
    expect(await health()).toBe('degraded');
    expect(access.accessFileState()).toMatchObject({ state: 'deleted', file: FILE });
    expect(await degraded()).toEqual(['lockboard_access_file_degraded{state="deleted"} 1']);
    expect(notice()).toMatch(/was deleted: every grant and token it gave is withdrawn/);
    // a broken file written in its place has no last good grants to keep: the deleted file's are gone
    writeFileSync(FILE, 'grants: [');
    later(access.ACCESS_CHECK_MS);
    expect((await list({ as: BEN })).status).toBe(403);
    writeFileSync(FILE, file());
    later(access.ACCESS_CHECK_MS);
    expect((await list({ as: BEN })).status).toBe(200);
    expect(await health()).toBe('ok');
  });
});

describe('a file that cannot be used', () => {
  it('keeps the last good grants for the grace (5 minutes), degraded meanwhile, then fails closed', async () => {
    quiet();
    writeFileSync(FILE, file({ bot: false }).replace('role: viewer', 'role: admin'));
    later(access.ACCESS_CHECK_MS);
    // within the grace: the last good grants (the bot's token among them), said in health, the metric and the log
    expect((await list({ bearer: BOT })).status).toBe(200);
    expect(await health()).toBe('degraded');
    const state = access.accessFileState();
    expect(state).toMatchObject({ state: 'grace', file: FILE });
    if (state.state !== 'grace') throw new Error('not in its grace');
    expect(Date.parse(state.until) - Date.parse(state.since)).toBe(access.ACCESS_GRACE_MS);
    expect(state.problem).toMatch(/grants\.0\.role must be one of viewer, releaser, operator/);
    expect(await degraded()).toEqual(['lockboard_access_file_degraded{state="grace"} 1']);
    expect(notice()).toContain(`stay in force until ${state.until}`);
    expect(vi.mocked(console.error).mock.calls.flat().join(' ')).toMatch(/stay in force until .*then every grant/);
    // another broken edit does not start the grace again
    later(access.ACCESS_GRACE_MS - 2 * access.ACCESS_CHECK_MS);
    writeFileSync(FILE, 'grants: [');
    later(access.ACCESS_CHECK_MS);
    expect((await list({ as: ANN })).status).toBe(200);
    // past the grace: every grant and token of the file withdrawn
    later(access.ACCESS_CHECK_MS);
    expect((await list({ bearer: BOT })).status).toBe(401);
    expect((await list({ bearer: OTHER })).status).toBe(401);
    expect((await list({ as: ANN })).status).toBe(403);
    expect(await health()).toBe('degraded');
    expect(access.accessFileState().state).toBe('closed');
    expect(await degraded()).toEqual(['lockboard_access_file_degraded{state="closed"} 1']);
    expect(notice()).toMatch(/last good grants were withdrawn at/);
    // fixed: in force again at the next check
    writeFileSync(FILE, file());
    later(access.ACCESS_CHECK_MS);
    expect((await list({ as: ANN })).status).toBe(200);
    expect(await degraded()).toEqual([]);
    expect(notice()).toBe('');
  });
});
