// GET /api/locks/stream: Server-Sent Events from one shared watcher per source: a snapshot, then each change (a new
// holder within the store's pace, a release on this replica at once), keep-alive-ready headers that no proxy may
// transform, the role checked like every route, and one listing per interval however many streams are open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock } from '@/lib/lock';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { call, importRoutes, request, SECRET, type Routes } from '../helpers/routes';

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

/** Opens a stream and reads its events as they come. */
async function open(as: string) {
  const abort = new AbortController();
  const req = await request('/api/locks/stream', { as });
  const res = await stream.GET(new (req.constructor as typeof Request)(req, { signal: abort.signal }) as never, {
    params: Promise.resolve({}),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: { event: string; data: Record<string, unknown> }[] = [];
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value);
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name && data) events.push({ event: name, data: JSON.parse(data) as Record<string, unknown> });
      }
    }
  })();
  const next = async (name: string, timeoutMs = 6_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = events.findIndex((e) => e.event === name);
      if (i >= 0) return events.splice(i, 1)[0]!.data;
      if (Date.now() > deadline)
        throw new Error(`no ${name} event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { res, next, close: async () => (abort.abort(), await reader.cancel().catch(() => undefined), await pump) };
}

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
    const added = await s.next('change');
    expect((added.upsert as { name: string }[]).map((l) => l.name)).toEqual(['locks/second']);

    const started = Date.now();
    const r = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { name: 'locks/first', version: `${held.generation}.${held.currentMetageneration}`, reason: 'test' },
    });
    expect(r.status).toBe(200);
    const removed = await s.next('change', 1_500);
    expect(removed.remove).toEqual(['locks/first']);
    expect(Date.now() - started).toBeLessThan(1_500); // the watcher lists at once after a release here
    await s.close();
    await second.release();
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
});
