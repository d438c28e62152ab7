// Pure logic of the Kubernetes store (no apiserver): MicroTime, sources, which Leases are locks, what a release
// writes and how a 409 is read. The real apiserver checks the same in store.test.ts.
import { describe, expect, it } from 'vitest';
import { readLease, notALock } from '@/lib/lock/stores/kubernetes/formats';
import { microTime, type Lease } from '@/lib/lock/stores/kubernetes/lease';
import { clearedLease, outcomeAgainst } from '@/lib/lock/stores/kubernetes/release';
import { parseKubeSource } from '@/lib/lock/stores/kubernetes/source';
import { holderHash, KUBERNETES_VERSION } from '@/lib/lock/stores/kubernetes/version';
import { connectKubernetes } from '@/lib/lock/stores/kubernetes/client';
import { KubeLockStore } from '@/lib/lock/stores/kubernetes/store';
import type { LeaseApi } from '@/lib/lock/stores/kubernetes/lease';
import { LockOptionsError } from '@/lib/lock/errors';
import { viewOf, type Observations } from '@/lib/lock/stores/kubernetes/view';

const UID = '0b6f4c52-5d3e-4b8a-9c1e-2f7a9d1c3e5b';
const lease = (spec: Lease['spec'], meta: Partial<Lease['metadata']> = {}): Lease => ({
  metadata: { name: 'ctrl', namespace: 'default', uid: UID, resourceVersion: '7', ...meta },
  spec,
});
const clientGo = lease({
  holderIdentity: 'pod-a',
  leaseDurationSeconds: 15,
  acquireTime: '2026-11-25T10:00:00.000000Z',
  renewTime: '2026-11-25T10:05:00.123456Z',
  leaseTransitions: 3,
});

describe('the Kubernetes store, pure logic', () => {
  it('writes MicroTime with exactly six fractional digits (toISOString has three: the apiserver answers 400)', () => {
    expect(microTime(Date.UTC(2026, 10, 25, 10, 43, 22, 123))).toBe('2026-11-25T10:43:22.123000Z');
    expect(microTime(1.7e12 + 0.6)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('parses kubernetes://NAMESPACE, every namespace, ?context= and ?audit=, and names what is wrong', () => {
    expect(parseKubeSource('kubernetes://default')).toEqual({ namespace: 'default', display: 'kubernetes://default' });
    expect(parseKubeSource('kubernetes://')).toEqual({ display: 'kubernetes://' });
    expect(parseKubeSource('kubernetes://ops?context=prod&audit=lockboard').display).toBe(
      'kubernetes://ops?context=prod&audit=lockboard',
    );
    expect(() => parseKubeSource('kubernetes://Ops_1')).toThrow(/not a namespace name/);
    expect(() => parseKubeSource('kubernetes://ops?namespace=x')).toThrow(/\?context=NAME and \?audit=NAMESPACE/);
    expect(() => parseKubeSource('kubernetes://a/b')).toThrow(/kubernetes:\/\/NAMESPACE/);
  });

  it('reads client-go, Terraform and other Leases; a Lease nobody holds is no lock', () => {
    expect(readLease(clientGo)).toMatchObject({ kind: 'client-go-lease', holder: 'pod-a', durationMs: 15_000 });
    const info = JSON.stringify({ ID: 'a1', Who: 'alice@laptop', Operation: 'OperationTypeApply' });
    const tf = lease(
      { holderIdentity: 'a1' },
      { name: 'lock-tfstate-default-state', annotations: { 'app.terraform.io/lock-info': info } },
    );
    expect(readLease(tf)).toMatchObject({ kind: 'terraform', identity: 'alice@laptop' });
    expect(readLease(tf)?.durationMs).toBeUndefined();
    expect(readLease(lease({ holderIdentity: 'x' }))).toMatchObject({ kind: 'lease' });
    expect(readLease(lease({ holderIdentity: '', leaseDurationSeconds: 1 }))).toBeNull();
  });

  it('counts node heartbeats and apiserver identities as not locks', () => {
    const node = lease(
      { holderIdentity: 'node-1', leaseDurationSeconds: 40 },
      { namespace: 'kube-node-lease', name: 'node-1' },
    );
    const ident = lease({ holderIdentity: 'apiserver-x' }, { namespace: 'kube-system', name: 'apiserver-abc' });
    expect(notALock(node)).toMatch(/heartbeat/);
    expect(notALock(ident)).toMatch(/identity/);
    expect(readLease(node)).toBeNull();
    expect(notALock(clientGo)).toBeUndefined();
  });

  it('releases as client-go does, pinned to the version seen; Terraform loses its LockInfo', () => {
    const cleared = clearedLease({ ...clientGo, metadata: { ...clientGo.metadata, resourceVersion: '9' } }, '7', 0);
    expect(cleared.metadata.resourceVersion).toBe('7');
    expect(cleared.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 3 });
    expect(cleared.spec?.renewTime).toBe('1970-01-01T00:00:00.000000Z');
    const tf = lease(
      { holderIdentity: 'a1' },
      { name: 'lock-tfstate-x', annotations: { 'app.terraform.io/lock-info': '{}' } },
    );
    const tfCleared = clearedLease(tf, '7', 0);
    expect(tfCleared.spec?.holderIdentity).toBeUndefined();
    expect(tfCleared.metadata.annotations).toEqual({});
  });

  it('reads a 409 as refreshed (same holder), changed (another holder or a re-created Lease) or gone', () => {
    const seen = { uid: UID, resourceVersion: '7', holder: holderHash('pod-a') };
    const renewed = lease({ ...clientGo.spec }, { resourceVersion: '8' });
    expect(outcomeAgainst(renewed, seen)).toBe('refreshed');
    expect(outcomeAgainst(lease({ ...clientGo.spec, holderIdentity: 'pod-b' }, { resourceVersion: '8' }), seen)).toBe(
      'changed',
    );
    expect(outcomeAgainst(lease({ ...clientGo.spec }, { uid: '1b6f4c52-5d3e-4b8a-9c1e-2f7a9d1c3e5b' }), seen)).toBe(
      'changed',
    );
    expect(outcomeAgainst(lease({ holderIdentity: '' }), seen)).toBe('gone');
    expect(outcomeAgainst(null, seen)).toBe('gone');
  });

  it('a version is RESOURCEVERSION.UID.HOLDER', () => {
    expect(KUBERNETES_VERSION.test(`42.${UID}.9f86d081`)).toBe(true);
    expect(KUBERNETES_VERSION.test(`42.${UID}`)).toBe(false);
    expect(KUBERNETES_VERSION.test('42')).toBe(false);
    expect(KUBERNETES_VERSION.describe).toMatch(/^a Kubernetes version is/);
  });

  it('judges health as client-go does: expired once seen unchanged for its lease; the writer’s clock alone is overdue', () => {
    const seen: Observations = new Map();
    const renew = Date.parse('2026-11-25T10:05:00.123Z');
    const o = { source: 'kubernetes://', name: 'default/ctrl', seen };
    expect(viewOf(clientGo, { ...o, now: renew + 5_000 })?.health).toBe('healthy');
    expect(viewOf(clientGo, { ...o, now: renew + 14_000 })?.health).toBe('healthy'); // unchanged for 9 s of 15
    const late = viewOf(clientGo, { ...o, now: renew + 21_000 })!; // unchanged for 16 s since first seen
    expect(late.health).toBe('expired');
    expect(late.note).toMatch(/Unchanged for 16 s/);
    const fresh: Observations = new Map(); // a console that has just started: only the writer's renewTime says so
    expect(viewOf(clientGo, { ...o, seen: fresh, now: renew + 60_000 })?.health).toBe('overdue');
    const renewed = lease({ ...clientGo.spec, renewTime: microTime(renew + 21_000) }, { resourceVersion: '8' });
    expect(viewOf(renewed, { ...o, now: renew + 22_000 })?.health).toBe('healthy'); // a new version: seen anew
  });

  it('names what to set when no credentials are found, and the contexts when a context is unknown', async () => {
    await expect(connectKubernetes({ HOME: '/nonexistent' })).rejects.toThrow(/set KUBECONFIG, write ~\/.kube\/config/);
  });

  it('refuses a name that cannot name a Lease under the source, saying what to give', async () => {
    const api = { read: async () => null } as unknown as LeaseApi;
    const every = new KubeLockStore({ api });
    await expect(every.inspect('no-slash')).rejects.toBeInstanceOf(LockOptionsError);
    await expect(every.inspect('no-slash')).rejects.toThrow(/give NAMESPACE\/NAME/);
    expect(every.refOf('ops/ctrl')).toEqual({ namespace: 'ops', lease: 'ctrl' });
    const one = new KubeLockStore({ api, namespace: 'ops' });
    await expect(one.inspect('ops/ctrl')).rejects.toThrow(/give the Lease’s name/);
    expect(await one.inspect('ctrl')).toBeNull();
  });
});
