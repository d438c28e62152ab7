// Lockboard's own lock on Azure: a fixed lease whose id is its token (growing for every later holder), renewed in the
// background; a second contender waits through the shared wait; a force-release or a break is pushed to the holder
// through its signal.
import type { ContainerClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockTimeoutError } from '@/lib/lock/errors';
import { acquireAzureLock, AzureBlobs, AzureLockStore, withAzureLock } from '@/lib/lock/stores/azure';
import { startAzurite, type TestAzurite } from '../helpers/azurite';
import { abortedWithin } from '../helpers/requests';

let az: TestAzurite;
let c: ContainerClient;
beforeAll(async () => {
  az = await startAzurite();
  c = await az.container('jobs');
});
afterAll(() => az?.stop());

const store = () =>
  new AzureLockStore({
    blobs: new AzureBlobs(c, 'azure://devstoreaccount1/jobs/', az.url),
    account: 'devstoreaccount1',
    container: 'jobs',
  });

describe("Lockboard's lock on Azure", () => {
  it('holds a renewed fixed lease with its owner in metadata; a contender times out naming the holder', async () => {
    const lock = await acquireAzureLock({
      client: c,
      name: 'locks/nightly',
      identity: 'alice',
      ttlMs: 15_000,
      refreshIntervalMs: 2_000,
    });
    const p = await c.getBlobClient('locks/nightly').getProperties();
    expect(p).toMatchObject({ leaseState: 'leased', leaseDuration: 'fixed' });
    expect(p.metadata).toMatchObject({ format: 'lockboard/1', identity: 'alice', token: lock.fencingToken });
    const view = (await store().inspect('locks/nightly'))!;
    expect(view).toMatchObject({
      format: 'lockboard',
      identity: 'alice',
      health: 'healthy',
      generation: lock.fencingToken,
    });
    const err = await acquireAzureLock({ client: c, name: 'locks/nightly', identity: 'bob', timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect(lock.isHealthy).toBe(true);
    expect(await lock.release()).toBe('released');
    expect(await store().inspect('locks/nightly')).toBeNull();
  });

  it('gives every later holder a larger token; a waiter gets the lock once it is released', async () => {
    const tokens: string[] = [];
    await withAzureLock(
      { client: c, name: 'locks/deploy', identity: 'a' },
      async (l) => void tokens.push(l.fencingToken),
    );
    const first = await acquireAzureLock({ client: c, name: 'locks/deploy', identity: 'b' });
    tokens.push(first.fencingToken);
    const waiting = acquireAzureLock({ client: c, name: 'locks/deploy', identity: 'c', timeoutMs: 10_000 });
    setTimeout(() => void first.release(), 300);
    const second = await waiting;
    tokens.push(second.fencingToken);
    await second.release();
    expect([...tokens].sort()).toEqual(tokens);
    expect(new Set(tokens).size).toBe(3);
  });

  it('never takes a lease on a blob that holds data or another tool’s metadata', async () => {
    await c.getBlockBlobClient('state.tfstate').upload('{"version":4}', 13);
    await expect(acquireAzureLock({ client: c, name: 'state.tfstate', timeoutMs: 0 })).rejects.toThrow(
      /not a Lockboard lock blob/,
    );
    expect((await c.getBlobClient('state.tfstate').getProperties()).leaseState).toBe('available');
  });

  it('learns of a force-release at its next renewal: the signal aborts', async () => {
    const lock = await acquireAzureLock({
      client: c,
      name: 'locks/report',
      identity: 'alice',
      ttlMs: 15_000,
      refreshIntervalMs: 500,
    });
    const s = store();
    const seen = (await s.inspect('locks/report'))!;
    const r = await s.forceRelease({ name: 'locks/report', version: seen.version, reason: 'stuck', operator: 'ops' });
    expect(r.outcome).toBe('released');
    expect(await abortedWithin(lock.signal, 3_000)).toBeLessThan(3_000);
    expect((lock.signal.reason as Error).message).toMatch(/deleted|released|broken/);
    expect(await lock.release()).toBe('already-lost');
  });
});
