// Lock-file directories recording into one ?audit= directory share one trail: the audit route reads it once and names
// each event with the directory it is of, so nothing is counted twice (the DynamoDB case is in audit-faults.test.ts).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource, parseSource } from '@/lib/lock/stores';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';

const VIEWER = 'viewer@example.com';
const root = mkdtempSync(join(tmpdir(), 'lockboard-shared-trail-'));
const [a, b, shared] = ['a', 'b', 'audit'].map((d) => join(root, d)) as [string, string, string];
for (const d of [a, b, shared]) mkdirSync(d);
const sourceOf = (dir: string) => `file://${dir}?audit=${shared}`;
let routes: Routes;

beforeAll(async () => {
  for (const [dir, n] of [
    [a, 3],
    [b, 2],
  ] as const) {
    const env = { ...process.env };
    const store = await openSource(parseSource(sourceOf(dir), env), { env, role: 'cli' });
    for (let i = 0; i < n; i++) await store.record({ event: 'acquired', lock: 'deploy.lock', generation: String(i) });
    await store.close();
  }
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `${sourceOf(a)},${sourceOf(b)}`,
    LOCKBOARD_VIEWERS: VIEWER,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a trail shared by two sources', () => {
  it('counts each event once, under the source it is of', async () => {
    const from = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    const res = await call(routes.audit.GET, `/api/audit?from=${from}`, { as: VIEWER });
    expect(res.status).toBe(200);
    const events = res.json.events as { source: string; bucket: string }[];
    const bySource: Record<string, number> = {};
    for (const e of events) bySource[e.source] = (bySource[e.source] ?? 0) + 1;
    expect(bySource).toEqual({ [sourceOf(a)]: 3, [sourceOf(b)]: 2 });
    const one = await call(
      routes.audit.GET,
      `/api/audit?from=${from}&lock=deploy.lock&bucket=${encodeURIComponent(`file://${b}`)}`,
      { as: VIEWER },
    );
    expect((one.json.events as unknown[]).length).toBe(2);
  });
});
