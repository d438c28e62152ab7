// GET /api/locks/stream: Server-Sent Events from one shared watcher per source: a snapshot, then each change (a new
// holder within the store's pace, a release on this replica at once), keep-alive-ready headers that no proxy may
// transform, the role checked like every route, and one listing per interval however many streams are open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock } from '@/lib/lock';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { call, importRoutes, SECRET, type CallOptions, type Routes } from '../helpers/routes';
import { openStream } from '../helpers/stream';
import { applyChange } from '@/components/locks/lock-stream-cache';
import type { LocksData } from '@/lib/console/queries';
import { writeTerraformLock } from '../helpers/writers';

const OPERATOR = 'ops@example.com';
const VIEWER = 'viewer@example.com';
let t: Target;
let routes: Routes;
let stream: typeof import('@/app/api/locks/stream/route');

beforeAll(async () => {
  t = await startTestEmulator();
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_PREFIXES: 'locks/',
    LOCKBOARD_OPERATORS: OPERATOR,
    LOCKBOARD_VIEWERS: VIEWER,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_SOURCES;
  routes = await importRoutes();
  stream = await import('@/app/api/locks/stream/route');
});
afterAll(() => t?.close());

const open = (as: string, opts: CallOptions = {}) => openStream(stream.GET, as, opts);

describe('GET /api/locks/stream', () => {
  it('answers 401 without a session and 403 on no list, like every route', async () => {
    expect((await call(stream.GET, '/api/locks/stream')).status).toBe(401);
    expect((await call(stream.GET, '/api/locks/stream', { as: 'stranger@example.com' })).status).toBe(403);
  });

  it('sends a snapshot, then a new holder within the store’s pace, then a release on this replica at once', async () => {
    const held = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/first',
      ttlMs: 60_000,
      audit: false,
    });
    const s = await open(VIEWER);
    expect(s.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(s.res.headers.get('cache-control')).toBe('no-store, no-transform');
    const snapshot = await s.next('snapshot');
    expect((snapshot.locks as { name: string }[]).map((l) => l.name)).toEqual(['locks/first']);

    const second = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/second',
      ttlMs: 60_000,
      audit: false,
    });
    // the window held every lock: the new one joins it in its sorted place (the window sent again)
    const added = await s.shown('locks/second');
    expect(((added.upsert ?? added.locks) as { name: string }[]).map((l) => l.name)).toContain('locks/second');

    const started = Date.now();
    const r = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: {
        name: 'locks/first',
        version: `${held.generation}.${held.currentMetageneration}`,
        acknowledgeAlive: true,
        reason: 'test',
      },
    });
    expect(r.status).toBe(200);
    const removed = await s.next('change', 1_500);
    expect(removed.remove).toEqual(['locks/first']);
    expect(Date.now() - started).toBeLessThan(1_500); // the watcher lists at once after a release here
    await s.close();
    await second.release();
  });

  it('brings back a row released and re-acquired under the same name, placed by `order` (the window never shrinks)', async () => {
    const take = (name: string) =>
      acquireLock({ storage: t.storage, bucket: t.bucket, name, ttlMs: 60_000, audit: false });
    const a = await take('locks/churn-a');
    const b = await take('locks/churn-b');
    const s = await open(VIEWER);
    let shown = (await s.next('snapshot')) as unknown as LocksData;
    const apply = (c: Record<string, unknown>) =>
      (shown = applyChange(shown, c as unknown as Parameters<typeof applyChange>[1]));
    expect(shown.locks.map((l) => l.name)).toEqual(expect.arrayContaining(['locks/churn-a', 'locks/churn-b']));
    // every change applied in order, as the page does, until the condition holds
    const until = async (done: (c: Record<string, unknown>) => boolean) => {
      for (;;) {
        const c = await s.next('change');
        apply(c);
        if (done(c)) return c;
      }
    };
    await a.release();
    await until((c) => (c.remove as string[]).includes('locks/churn-a'));
    expect(shown.locks.map((l) => l.name)).not.toContain('locks/churn-a');
    const again = await take('locks/churn-a');
    const back = await until((c) => (c.upsert as { name: string }[]).some((l) => l.name === 'locks/churn-a'));
    expect(back.order, 'the re-acquired row comes with the order that places it').toBeDefined();
    const api = (await call(routes.locks.GET, '/api/locks', { as: VIEWER })).json;
    const listed = (api.locks as { name: string }[]).map((l) => l.name);
    expect(shown.locks.map((l) => l.name)).toEqual(listed);
    await s.close();
    await Promise.all([again.release(), b.release()]);
  });

  it('costs one listing per interval however many streams are open', async () => {
    const streams = await Promise.all(Array.from({ length: 20 }, () => open(VIEWER)));
    await Promise.all(streams.map((s) => s.next('snapshot')));
    t.emulator!.requests.clear();
    await new Promise((r) => setTimeout(r, 4_500)); // two intervals of GCS's pace (2 s)
    const lists = t.emulator!.requests.count((e) => e.method === 'GET' && e.path.endsWith('/o'));
    expect(lists).toBeGreaterThanOrEqual(1);
    expect(lists).toBeLessThanOrEqual(3);
    await Promise.all(streams.map((s) => s.close()));
  });

  it('answers a reconnect (Last-Event-ID) with a reset and a fresh snapshot, and numbers every event', async () => {
    const first = await open(VIEWER);
    await first.next('snapshot');
    const lastId = first.all.at(-1)!.id!;
    expect(lastId).toMatch(/^[0-9a-f]{8}-\d+$/);
    await first.close();
    const again = await open(VIEWER, { headers: { 'last-event-id': lastId } });
    const reset = await again.next('reset');
    expect(reset.reason).toBe('reconnected');
    await again.next('snapshot');
    expect(again.all.map((e) => e.event)).toEqual(['reset', 'snapshot']);
    await again.close();
  });

  it('ends the stream when the session expires, so the browser reconnects and meets a 401', async () => {
    const { encode } = await import('next-auth/jwt');
    const token = await encode({ token: { email: VIEWER, sub: VIEWER }, secret: SECRET, maxAge: 2 });
    const s = await open('', { headers: { cookie: `next-auth.session-token=${token}` } });
    expect(s.res.status).toBe(200);
    await s.next('snapshot');
    for (let i = 0; i < 60 && !s.ended(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(s.ended()).toBe(true);
    await s.close();
    const later = await call(stream.GET, '/api/locks/stream', {
      headers: { cookie: `next-auth.session-token=${token}` },
    });
    expect(later.status).toBe(401);
    // a browser's EventSource (Accept: text/event-stream) is told on a 200 stream, so the page can go to sign-in
    const browser = await open('', {
      headers: { cookie: `next-auth.session-token=${token}`, accept: 'text/event-stream' },
    });
    expect(browser.res.status).toBe(200);
    expect((await browser.next('signed-out')).message).toMatch(/session has ended/);
    await browser.close();
    const stranger = await call(stream.GET, '/api/locks/stream', {
      as: 'stranger@example.com',
      headers: { accept: 'text/event-stream' },
    });
    expect(stranger.status).toBe(403); // not a session problem: refused as usual
  });

  it('sends a cold source whole once its few bodies are read, each row filled in (pending rows first when many)', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `locks/cold-${i}/default.tfstate`);
    for (const n of names) await writeTerraformLock(t.storage, t.bucket, n, 'ann@laptop');
    const s = await open(VIEWER);
    const snapshot = (await s.next('snapshot')).locks as {
      name: string;
      pending?: boolean;
      identity?: string;
      format: string;
    }[];
    const filled = new Map<string, { pending?: boolean; identity?: string; format: string }>();
    for (const l of snapshot.filter((x) => x.name.startsWith('locks/cold-'))) if (!l.pending) filled.set(l.name, l);
    expect(snapshot.filter((l) => l.name.startsWith('locks/cold-'))).toHaveLength(20);
    // a few bodies are waited for (under a second): what is not read yet comes as changes
    for (let i = 0; i < 20 && filled.size < 20; i++) {
      const change = await s.next('change');
      for (const l of change.upsert as { name: string; pending?: boolean; identity?: string; format: string }[])
        if (!l.pending) filled.set(l.name, l);
    }
    expect(filled.size).toBe(20);
    expect(
      [...filled.values()].every((l) => !l.pending && l.format === 'terraform' && l.identity === 'ann@laptop'),
    ).toBe(true);
    await s.close();
  });
});
