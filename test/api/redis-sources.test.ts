// A Redis source in the console, through the route handlers against a real redis-server: listing with the store and
// a hashed version (the password and the raw token never in a response), the lock page, a compare-and-delete release
// refused for a successor, keys outside the source's match pattern refused, the audit stream in histories.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockInfo } from '@/lib/lock';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { startRedis, type TestRedis } from '../helpers/redis';

const OPERATOR = 'ops@example.com';
let r: TestRedis;
let routes: Routes;
let source: string;
let bucket: string;
const TOKEN = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

beforeAll(async () => {
  r = await startRedis();
  // requirepass, so the source URL carries a real secret the console must never show
  await r.client.sendCommand(['CONFIG', 'SET', 'requirepass', 'hunter2-secret']);
  await r.client.sendCommand(['AUTH', 'hunter2-secret']);
  await r.client.sendCommand(['SET', 'locks:report', TOKEN, 'PX', '60000']);
  await r.client.sendCommand(['SET', 'other:key', 'q83vASNFZ4mrze8BI0VniQ==', 'PX', '60000']);
  source = `redis://127.0.0.1:${r.port}/0?match=locks:*`;
  bucket = `redis://127.0.0.1:${r.port}/0`;
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `redis://:hunter2-secret@127.0.0.1:${r.port}/0?match=locks:*`,
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 30_000);
afterAll(() => r?.stop());

type View = LockInfo & { store: string; version: string; source: string };

describe('Redis sources in the console', () => {
  it('lists the source’s locks with their store and a hashed version; no password or token in the response', async () => {
    const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    expect(res.status).toBe(200);
    const locks = res.json.locks as View[];
    expect(locks.map((l) => [l.store, l.bucket, l.name, l.format])).toEqual([
      ['redis', bucket, 'locks:report', 'redlock'],
    ]);
    expect(locks[0]!.source).toBe(source);
    expect(res.text).not.toContain('hunter2');
    expect(res.text).not.toContain(TOKEN);
  });

  it('releases by compare-and-delete: 409 for a successor, 200 for the value seen, 400 outside the match pattern', async () => {
    const seen = ((await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR })).json.locks as View[])[0]!;
    await r.client.sendCommand(['SET', 'locks:report', 'ffffffffffffffffffffffffffff0000', 'PX', '60000']);
    const body = { name: 'locks:report', bucket, version: seen.version, reason: 'stuck' };
    const stale = await call(routes.release.POST, '/api/locks/release', { as: OPERATOR, method: 'POST', body });
    expect(stale.status).toBe(409);
    expect(await r.client.sendCommand(['EXISTS', 'locks:report'])).toBe(1);
    const current = stale.json.current as View;
    const done = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { ...body, version: current.version },
    });
    expect(done.status).toBe(200);
    expect(await r.client.sendCommand(['EXISTS', 'locks:report'])).toBe(0);
    const outside = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { name: 'other:key', bucket, version: current.version, reason: 'x' },
    });
    expect(outside.status).toBe(400);
    expect(await r.client.sendCommand(['EXISTS', 'other:key'])).toBe(1);
  });

  it('shows the release in the lock’s history from the audit stream', async () => {
    const to = encodeURIComponent(new Date(Date.now() + 5_000).toISOString());
    const res = await call(
      routes.audit.GET,
      `/api/audit?lock=locks:report&bucket=${encodeURIComponent(bucket)}&to=${to}`,
      { as: OPERATOR },
    );
    expect(res.status).toBe(200);
    expect((res.json.events as { event: string }[]).map((e) => e.event).sort()).toEqual([
      'force-release-refused',
      'force-release-requested',
      'force-release-requested',
      'force-released',
    ]);
  });
});
