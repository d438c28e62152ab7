// `kubernetes://` (every namespace) finds its audit Lease through the kubeconfig's namespace; beside
// `kubernetes://default` that is the same Lease. Both sources name one trail (the context's cluster and the audit
// namespace, read from the kubeconfig as kubectl reads it, YAML or JSON), so the console reads it once and counts
// each event once, under the source that recorded it.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource, parseSource } from '@/lib/lock/stores';
import { startKube, type TestKube } from '../helpers/kubernetes';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';

const VIEWER = 'viewer@example.com';
const DAY = 86_400_000;
const [EVERY, DEFAULT] = ['kubernetes://', 'kubernetes://default'];
let kube: TestKube;
let routes: Routes;
let env: Record<string, string | undefined>;

/** GETs of one Lease the apiserver has served (its apiserver_request_total metric). */
function leaseGets(): number {
  const metrics = kube.kubectl(['get', '--raw', '/metrics']).stdout;
  let n = 0;
  for (const line of metrics.split('\n'))
    if (/^apiserver_request_total\{.*resource="leases",scope="resource".*verb="GET"/.test(line))
      n += Number(line.split(' ').pop());
  return n;
}

beforeAll(async () => {
  kube = await startKube();
  env = { ...process.env, KUBECONFIG: kube.kubeconfig };
  for (const [source, lock, n] of [
    [EVERY, 'default/deploy', 3],
    [DEFAULT, 'deploy', 2],
  ] as const) {
    const store = await openSource(parseSource(source, env), { env, role: 'cli' });
    for (let i = 0; i < n; i++) await store.record({ event: 'acquired', lock, generation: String(i) });
    await store.close();
  }
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `${EVERY},${DEFAULT}`,
    KUBECONFIG: kube.kubeconfig,
    LOCKBOARD_VIEWERS: VIEWER,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
});
afterAll(async () => {
  delete process.env.KUBECONFIG;
  await kube?.stop();
});

describe('one audit Lease behind two Kubernetes sources', () => {
  it('is one trail: the kubeconfig’s namespace and cluster, from kubectl’s YAML or its JSON', () => {
    const trail = (url: string, e = env) => parseSource(url, e).trail;
    expect(trail(EVERY)).toBe(`kubernetes-audit://${kube.server}/default`);
    expect(trail(EVERY)).toBe(trail(DEFAULT));
    expect(trail('kubernetes://?context=test')).toBe(trail(DEFAULT));
    expect(trail('kubernetes://?context=other')).toBe(`kubernetes-audit://${kube.server}/kube-system`);
    expect(trail('kubernetes://?audit=default')).toBe(trail(DEFAULT));
    for (const format of ['json', 'yaml']) {
      // kubectl's own output (its YAML puts `context:` before `name:`, unlike the file the helper writes)
      const file = join(tmpdir(), `lockboard-kubeconfig-${process.pid}.${format}`);
      const view = kube.kubectl(['config', 'view', '--raw', '-o', format]);
      expect(view.code, view.stderr).toBe(0);
      writeFileSync(file, view.stdout);
      try {
        expect(trail(EVERY, { KUBECONFIG: file }), format).toBe(trail(DEFAULT));
        expect(trail('kubernetes://?context=other', { KUBECONFIG: file }), format).toMatch(/\/kube-system$/);
      } finally {
        rmSync(file);
      }
    }
  });

  it('reads the Lease once and counts each event once, under the source that recorded it', async () => {
    const fromMs = Date.now() - 600_000;
    const days = Math.floor(Date.now() / DAY) - Math.floor(fromMs / DAY) + 1; // the console reads a UTC day at a time
    const from = encodeURIComponent(new Date(fromMs).toISOString());
    // A signed-in request may also refresh the replica's sign-out records (session-revocations.ts: the first
    // source's trail, this Lease, at most every 2 s): a request that reads no audit warms that copy first, so the
    // GETs counted next are the audit's own. A Lease read once per source would count twice as many.
    const warm = await call(routes.lock.GET, '/api/locks/none', { as: VIEWER }, { name: ['none'] });
    expect(warm.status).toBeLessThan(500);
    const before = leaseGets();
    const res = await call(routes.audit.GET, `/api/audit?from=${from}`, { as: VIEWER });
    expect(res.status, res.text).toBe(200);
    expect(leaseGets() - before).toBe(days); // one GET of lockboard-audit a day, as the apiserver counts it
    const events = res.json.events as { id: string; source: string; lock: string }[];
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const bySource: Record<string, string[]> = {};
    for (const e of events) (bySource[e.source] ??= []).push(e.lock);
    expect(bySource).toEqual({ [EVERY]: Array(3).fill('default/deploy'), [DEFAULT]: Array(2).fill('deploy') });
  });
});
