// Lockboard's lock on Kubernetes against real client-go candidates on a real apiserver: one Lease, written as
// client-go writes it, so both contend for it; the fencing token from leaseTransitions; loss through the signal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireKubeLease, KubeLockStore, connectKubernetes, type LeaseApi } from '@/lib/lock/stores/kubernetes';
import { startKube, type TestKube } from '../helpers/kubernetes';
import { runCli } from '../helpers/cli';
import { abortedWithin } from '../helpers/requests';

let kube: TestKube;
let api: LeaseApi;

beforeAll(async () => {
  kube = await startKube();
  api = await connectKubernetes({ ...kube.env });
});
afterAll(async () => {
  await kube?.stop();
});

describe('Lockboard’s lock as a client-go Lease', () => {
  it('waits for a client-go leader, takes the Lease when it steps down, and hands it to a client-go candidate', async () => {
    const a = kube.candidate({ namespace: 'default', name: 'shared', id: 'pod-a' });
    await a.waitFor('LEADING');
    const waiting = acquireKubeLease({
      api,
      namespace: 'default',
      name: 'shared',
      identity: 'lockboard-1',
      ttlMs: 6_000,
      timeoutMs: 20_000,
    });
    await new Promise((r) => setTimeout(r, 1_500));
    await a.stop('SIGTERM'); // client-go's ReleaseOnCancel clears holderIdentity
    const lock = await waiting;
    const lease = (await api.read('default', 'shared'))!;
    expect(lease.spec).toMatchObject({ holderIdentity: 'lockboard-1', leaseDurationSeconds: 6 });
    expect(lease.spec?.renewTime).toMatch(/\.\d{6}Z$/);
    expect(lock.fencingToken).toBe(String(lease.spec?.leaseTransitions));
    expect(Number(lock.fencingToken)).toBeGreaterThanOrEqual(1);
    const b = kube.candidate({ namespace: 'default', name: 'shared', id: 'pod-b' });
    await b.waitFor('NEW_LEADER lockboard-1'); // client-go reads our Lease as a live leader's
    await new Promise((r) => setTimeout(r, 3_000));
    expect(b.lines).not.toContain('LEADING pod-b'); // our renewals keep it ours
    const releasedAt = Date.now();
    expect(await lock.release()).toBe('released');
    expect((await b.waitFor('LEADING pod-b', 10_000)) - releasedAt).toBeLessThan(3_000);
    await b.stop();
  });

  it('pushes the loss through the signal when an operator clears the Lease', async () => {
    const lock = await acquireKubeLease({
      api,
      namespace: 'default',
      name: 'job',
      identity: 'lockboard-2',
      ttlMs: 9_000,
      refreshIntervalMs: 3_000, // no renew before the operator's release below
    });
    const store = new KubeLockStore({ api, namespace: 'default' });
    const seen = (await store.inspect('job'))!;
    expect(seen).toMatchObject({ format: 'client-go-lease', identity: 'lockboard-2' });
    const r = await store.forceRelease({ name: 'job', version: seen.version, reason: 'stuck', operator: 'ci' });
    expect(r.outcome).toBe('released');
    expect(await abortedWithin(lock.signal, 5_000)).toBeLessThan(5_000); // at its next renew
    expect((lock.signal.reason as Error).message).toMatch(/cleared|released/);
  });

  it('lockboard run --source kubernetes://NS holds the Lease while the command runs and releases it as client-go does', async () => {
    const script = 'console.log(process.env.LOCKBOARD_FENCING_TOKEN, process.env.LOCKBOARD_LOCK)';
    const args = ['run', '--source', 'kubernetes://default', 'cli-job', '--ttl', '10s', '--identity', 'cli-1'];
    const r = await runCli([...args, '--', process.execPath, '-e', script], kube.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^0 /);
    const lease = (await api.read('default', 'cli-job'))!;
    expect(lease.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    const bad = await runCli(['run', '--source', 'kubernetes://default', 'Not_A_Lease', '--', 'true'], kube.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Lease name/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});
