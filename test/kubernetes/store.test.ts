// The Lease store on a real kube-apiserver (Debian's source, Debian's etcd) with Leases written by a real client-go
// LeaderElector and by kubectl: what is listed, how a release is pinned, and the traps of facts-coordination §1.4.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedingStore, LockStore } from '@/lib/lock/store';
import { openSource, parseSource } from '@/lib/lock/stores';
import { connectKubernetes, type LeaseApi } from '@/lib/lock/stores/kubernetes';
import { startKube, type TestKube } from '../helpers/kubernetes';
import { runCli } from '../helpers/cli';
import { delay } from '../helpers/requests';

let kube: TestKube;
let store: LockStore;
// the Leases as a client writes them, beside the store (whose views are judged, and whose API is its own)
let leases: LeaseApi;
const api = () => leases;
const release = (name: string, version: string) =>
  store.forceRelease({ name, version, reason: 'test', operator: 'ci' });
const leaseJson = (ns: string, name: string, spec: object) =>
  JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: ns }, spec });

beforeAll(async () => {
  kube = await startKube();
  store = await openSource(parseSource('kubernetes://'), { env: { ...process.env, ...kube.env }, role: 'cli' });
  leases = await connectKubernetes({ ...process.env, ...kube.env });
});
afterAll(async () => {
  await store?.close();
  await kube?.stop();
});

describe('Kubernetes Leases on a real apiserver', () => {
  it('lists a client-go leader as a lock, and counts node heartbeats and apiserver identities without listing them', async () => {
    const leader = kube.candidate({ namespace: 'default', name: 'ctrl-list', id: 'pod-a' });
    await leader.waitFor('LEADING');
    const renew = '2026-01-01T00:00:00.000000Z';
    for (const [ns, name] of [
      ['kube-node-lease', 'node-1'],
      ['kube-system', 'apiserver-3f2a'],
    ] as const)
      expect(
        kube.kubectl(
          ['create', '-f', '-'],
          leaseJson(ns, name, { holderIdentity: name, leaseDurationSeconds: 40, renewTime: renew }),
        ).code,
      ).toBe(0);
    const page = await store.list();
    const names = page.locks.map((l) => l.name);
    expect(names).toContain('default/ctrl-list');
    expect(names).not.toContain('kube-node-lease/node-1');
    expect(names).not.toContain('kube-system/apiserver-3f2a');
    expect(page.skipped).toBeGreaterThanOrEqual(2);
    const lock = page.locks.find((l) => l.name === 'default/ctrl-list')!;
    expect(lock).toMatchObject({ format: 'client-go-lease', identity: 'pod-a', health: 'healthy', ttlMs: 15_000 });
    expect((await store.inspect('kube-node-lease/node-1'))?.releasable).toBe(false);
    await leader.stop();
  });

  it('refuses a live leader: it renewed since the version was read, so the pinned PUT gets 409 and the answer is refreshed', async () => {
    const leader = kube.candidate({ namespace: 'default', name: 'ctrl-live', id: 'pod-live' });
    await leader.waitFor('LEADING');
    const seen = (await store.inspect('default/ctrl-live'))!;
    await delay(2_500); // the leader renews every second
    const r = await release('default/ctrl-live', seen.version);
    expect(r.outcome).toBe('refreshed');
    expect(r.current?.identity).toBe('pod-live');
    expect(seen.terms.rule).toMatch(/409 Conflict/);
    expect(r.current?.terms.conflict).toMatch(/409 Conflict/); // the dialog and the CLI show it with the refusal
    const cli = await runCli(
      ['release', 'kubernetes://default', 'ctrl-live', '--version', seen.version, '--reason', 'x', '--operator', 'ci'],
      kube.env,
    );
    expect(cli.code, cli.stderr).toBe(11);
    expect(cli.stdout).toMatch(/refreshed since you looked[\s\S]*409 Conflict/);
    expect(leader.lines).not.toContain('STOPPED pod-live');
    await leader.stop();
  });

  it('hands a dead leader’s Lease to the waiting candidate at once, keeping the Lease (a delete would be re-created)', async () => {
    const a = kube.candidate({ namespace: 'default', name: 'ctrl-dead', id: 'pod-a' });
    await a.waitFor('LEADING');
    const b = kube.candidate({ namespace: 'default', name: 'ctrl-dead', id: 'pod-b' });
    await b.waitFor('NEW_LEADER pod-a');
    await a.stop('SIGKILL'); // dead: it clears nothing; pod-b would wait out the 15 s lease
    const before = (await api().read('default', 'ctrl-dead'))!;
    const seen = (await store.inspect('default/ctrl-dead'))!;
    const started = Date.now();
    const r = await release('default/ctrl-dead', seen.version);
    expect(r.outcome).toBe('released');
    const leading = await b.waitFor('LEADING pod-b', 10_000);
    expect(leading - started).toBeLessThan(5_000);
    const after = (await api().read('default', 'ctrl-dead'))!;
    expect(after.metadata.uid).toBe(before.metadata.uid); // the same Lease, not a re-created one
    expect(after.spec?.leaseTransitions).toBe((before.spec?.leaseTransitions ?? 0) + 1);
    // the same PUT replayed: the apiserver answers 409, and the new holder is kept
    const again = await release('default/ctrl-dead', seen.version);
    expect(again.outcome).toBe('changed');
    expect(again.current?.identity).toBe('pod-b');
    await b.stop();
  });

  it('shows why a release never deletes: kubectl delete of a live leader’s Lease is re-created by it at once', async () => {
    const leader = kube.candidate({ namespace: 'default', name: 'ctrl-deleted', id: 'pod-d' });
    await leader.waitFor('LEADING');
    const before = (await api().read('default', 'ctrl-deleted'))!;
    expect(kube.kubectl(['delete', 'lease', 'ctrl-deleted']).code).toBe(0); // no precondition at all
    let after = await api().read('default', 'ctrl-deleted');
    for (let i = 0; i < 40 && !after; i++) after = await delay(100).then(() => api().read('default', 'ctrl-deleted'));
    expect(after?.spec?.holderIdentity).toBe('pod-d'); // the same leader, a new Lease: nothing was handed over
    expect(after?.metadata.uid).not.toBe(before.metadata.uid);
    expect(after?.spec?.leaseTransitions ?? 0).toBe(0); // the fencing count starts again
    await leader.stop();
  });

  it('writes MicroTime the apiserver accepts: three fractional digits (a JS Date) get 400', async () => {
    kube.kubectl(
      ['create', '-f', '-'],
      leaseJson('default', 'micro', {
        holderIdentity: 'x',
        leaseDurationSeconds: 5,
        renewTime: '2026-01-01T00:00:00.000000Z',
      }),
    );
    const l = (await api().read('default', 'micro'))!;
    const bad = { ...l, spec: { ...l.spec, renewTime: new Date().toISOString() } };
    await expect(api().replace(bad)).rejects.toMatchObject({ status: 400 });
    const seen = (await store.inspect('default/micro'))!;
    expect((await release('default/micro', seen.version)).outcome).toBe('released');
    expect((await api().read('default', 'micro'))!.spec?.renewTime).toMatch(/\.\d{6}Z$/);
  });

  it('shows Terraform’s kubernetes backend lock with its LockInfo, never expiring, and releases it as terraform unlocks', async () => {
    const info = JSON.stringify({
      ID: 'c0ffee',
      Operation: 'OperationTypeApply',
      Who: 'alice@laptop',
      Version: '1.11.4',
      Created: '2026-11-01T10:00:00Z',
      Path: '',
      Info: '',
    });
    const tf = JSON.parse(leaseJson('default', 'lock-tfstate-default-state', { holderIdentity: 'c0ffee' }));
    tf.metadata.annotations = { 'app.terraform.io/lock-info': info };
    expect(kube.kubectl(['create', '-f', '-'], JSON.stringify(tf)).code).toBe(0);
    const lock = (await store.inspect('default/lock-tfstate-default-state'))!;
    expect(lock).toMatchObject({
      format: 'terraform',
      identity: 'alice@laptop',
      createdAt: '2026-11-01T10:00:00.000Z',
    });
    expect(lock.expiresAt).toBeUndefined();
    expect(['unknown', 'long-held']).toContain(lock.health);
    expect((await release(lock.name, lock.version)).outcome).toBe('released');
    const after = (await api().read('default', 'lock-tfstate-default-state'))!;
    expect(after.spec?.holderIdentity ?? null).toBeNull();
    expect(after.metadata.annotations?.['app.terraform.io/lock-info']).toBeUndefined();
  });

  it('feeds the console from a Lease watch within a second, leaving node heartbeats out', async () => {
    const changed: { names: string[]; at: number }[] = [];
    const feed = (await (store as FeedingStore).changes({
      changed: (names) => changed.push({ names, at: Date.now() }),
      missed: () => {},
    }))!;
    try {
      const hb = leaseJson('kube-node-lease', 'node-2', { holderIdentity: 'node-2', leaseDurationSeconds: 40 });
      kube.kubectl(['create', '-f', '-'], hb);
      const written = Date.now();
      kube.kubectl(
        ['create', '-f', '-'],
        leaseJson('default', 'watched', { holderIdentity: 'w', leaseDurationSeconds: 9 }),
      );
      for (let i = 0; i < 40 && !changed.some((c) => c.names.includes('default/watched')); i++) await delay(50);
      const seen = changed.find((c) => c.names.includes('default/watched'));
      expect(seen, 'the watch reported default/watched').toBeDefined();
      expect(seen!.at - written).toBeLessThan(1_000 + 500); // kubectl's own start-up is in there
      expect(changed.flatMap((c) => c.names)).not.toContain('kube-node-lease/node-2');
    } finally {
      await feed.stop();
    }
  });
});
