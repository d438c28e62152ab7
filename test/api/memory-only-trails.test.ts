// A trail kept only in memory says so (#62): real redis-servers, one without persistence (no save rule, appendonly
// no), one with the append-only file and one with a save rule. The store's optional memoryOnlyTrail says why for the
// first only (judged or not), and the console's audit list, its CSV export and the churn summary name that source's
// trail as memory-only and no other; a user refused CONFIG (a managed Redis) is claimed nothing of.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { call, routesFor, type Routes } from '../helpers/routes';
import { startRedis, type TestRedis } from '../helpers/redis';

const OPERATOR = 'ops@example.com';
let volatile: TestRedis;
let appendOnly: TestRedis;
let saved: TestRedis;
let routes: Routes;
const sourceOf = (r: TestRedis) => `redis://127.0.0.1:${r.port}/0?match=locks:*`;

beforeAll(async () => {
  [volatile, appendOnly, saved] = await Promise.all([
    startRedis(),
    startRedis(['--appendonly', 'yes']),
    startRedis(['--save', '3600 1']),
  ]);
  for (const r of [volatile, appendOnly, saved]) await r.client.sendCommand(['SET', 'locks:job', 'a'.repeat(32)]);
  routes = await routesFor([volatile, appendOnly, saved].map(sourceOf).join(','), OPERATOR);
}, 30_000);
afterAll(() => Promise.all([volatile, appendOnly, saved].map((r) => r?.stop())));

const storeOn = (r: TestRedis) => new RedisLockStore({ client: r.client, source: `redis://127.0.0.1:${r.port}/0` });

describe('a Redis trail kept in memory only', () => {
  it('is said by the store without persistence, and by no store with a save rule or appendonly', async () => {
    expect(await storeOn(volatile).memoryOnlyTrail()).toMatch(
      /in memory only: no save rule \(CONFIG GET save is empty\) and appendonly no, so a restart of the server loses it/,
    );
    expect(await storeOn(appendOnly).memoryOnlyTrail()).toBeNull();
    expect(await storeOn(saved).memoryOnlyTrail()).toBeNull();
  });

  it('is not claimed where the server refuses CONFIG (a user without it)', async () => {
    await volatile.client.sendCommand(['ACL', 'SETUSER', 'app', 'on', '>app-secret', '~*', '+@all', '-config']);
    const { createClient } = await import('redis');
    const app = await createClient({ url: `redis://app:app-secret@127.0.0.1:${volatile.port}` }).connect();
    try {
      await expect(app.sendCommand(['CONFIG', 'GET', 'save'])).rejects.toThrow(/NOPERM|permission/i);
      expect(await new RedisLockStore({ client: app, source: 'redis://app' }).memoryOnlyTrail()).toBeNull();
    } finally {
      await app.quit();
    }
  });

  it("is named in /api/audit, its CSV export and the churn summary, for that source's trail only", async () => {
    const list = await call(routes.audit.GET, '/api/audit', { as: OPERATOR });
    expect(list.status).toBe(200);
    const notes = list.json.memoryOnly as { sources: string[]; store: string; message: string }[];
    expect(notes.map((n) => n.sources)).toEqual([[sourceOf(volatile)]]);
    expect(notes[0]!.store).toBe('Redis');
    expect(notes[0]!.message).toMatch(/a restart of the server loses it/);
    const csv = await call(routes.audit.GET, '/api/audit?format=csv', { as: OPERATOR });
    expect(csv.headers.get('x-lockboard-memory-only')).toBe(sourceOf(volatile));
    const summary = await call(routes.summary.GET, '/api/audit/summary', { as: OPERATOR });
    expect((summary.json.memoryOnly as { sources: string[] }[]).map((n) => n.sources)).toEqual([[sourceOf(volatile)]]);
  });

  it('is no longer said once the server keeps its data (CONFIG SET appendonly yes)', async () => {
    await volatile.client.sendCommand(['CONFIG', 'SET', 'appendonly', 'yes']);
    expect(await storeOn(volatile).memoryOnlyTrail()).toBeNull();
  });
});
