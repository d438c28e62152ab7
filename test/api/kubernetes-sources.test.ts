// A Kubernetes source in the console, through the route handlers against a real kube-apiserver: a client-go leader
// and a Terraform lock listed with their store; a live leader's release refused (409) in Kubernetes' words, a dead
// one's released (200); the live stream shows a Lease written by kubectl within a second (the Lease watch).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockView } from '@/lib/lock/store';
import { startKube, type TestKube } from '../helpers/kubernetes';
import { delay } from '../helpers/requests';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { openStream } from '../helpers/stream';

const OPERATOR = 'ops@example.com';
const SOURCE = 'kubernetes://default';
let kube: TestKube;
let routes: Routes;
let stream: typeof import('@/app/api/locks/stream/route');
const lease = (name: string, spec: object) =>
  JSON.stringify({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'default' },
    spec,
  });

beforeAll(async () => {
  kube = await startKube();
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: SOURCE,
    KUBECONFIG: kube.kubeconfig,
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
  stream = await import('@/app/api/locks/stream/route');
});
afterAll(async () => {
  delete process.env.KUBECONFIG;
  await kube?.stop();
});

const list = async () =>
  ((await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR })).json.locks as LockView[]) ?? [];
const releaseOf = (l: LockView) =>
  call(routes.release.POST, '/api/locks/release', {
    as: OPERATOR,
    method: 'POST',
    body: { name: l.name, bucket: SOURCE, version: l.version, reason: 'stuck', identity: l.identity },
  });

describe('Kubernetes sources in the console', () => {
  it('lists leaders, refuses a live one in Kubernetes’ words (409) and releases a dead one (200)', async () => {
    const live = kube.candidate({ namespace: 'default', name: 'ctrl', id: 'pod-live' });
    await live.waitFor('LEADING');
    kube.kubectl(
      ['create', '-f', '-'],
      lease('dead', { holderIdentity: 'pod-gone', leaseDurationSeconds: 15, renewTime: '2026-01-01T00:00:00.000000Z' }),
    );
    const seen = await list();
    expect(seen.map((l) => [l.store, l.name, l.format])).toEqual([
      ['kubernetes', 'ctrl', 'client-go-lease'],
      ['kubernetes', 'dead', 'client-go-lease'],
    ]);
    await delay(2_500); // the live leader renews every second
    const refused = await releaseOf(seen[0]!);
    expect(refused.status).toBe(409);
    expect(refused.json.outcome).toBe('refreshed');
    expect((refused.json.current as LockView).terms.conflict).toMatch(/409 Conflict/);
    const released = await releaseOf(seen[1]!);
    expect(released.status, released.text).toBe(200);
    expect((await list()).map((l) => l.name)).toEqual(['ctrl']);
    await live.stop('SIGKILL');
  });

  it('streams a Lease written by kubectl to the screen within a second', async () => {
    const s = await openStream(stream.GET, OPERATOR);
    await s.next('snapshot');
    await delay(300); // the watch is open
    const written = Date.now();
    kube.kubectl(['create', '-f', '-'], lease('fresh', { holderIdentity: 'job-7' }));
    await s.shown('fresh', 3_000);
    const shown = Date.now();
    expect(shown - written).toBeGreaterThan(0);
    expect(shown - written).toBeLessThan(1_000 + 400); // kubectl's own start-up (~0.3 s) is in there
    await s.close();
  });
});
