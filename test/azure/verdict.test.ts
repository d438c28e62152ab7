// The verdict on Azure lease holders (stores.md "Verdict") on a real Azurite, each blob written as its writer leaves
// it (test/azure/layouts.ts): a WebJobs singleton whose host renews its 15 s fixed lease is alive once it has stayed
// leased longer than the lease; one whose host died is unknown with a second read to wait, then expires and is no
// lock at all (Azure reports it available); Terraform's infinite lease is unknown, naming its Who.
import { randomUUID } from 'node:crypto';
import type { ContainerClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AzureLockStore } from '@/lib/lock/stores/azure';
import { AzureBlobs } from '@/lib/lock/stores/azure/blobs';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { startAzurite, type TestAzurite } from '../helpers/azurite';
import { terraformLock, webjobsSingleton } from './layouts';

let az: TestAzurite;
let hosts: ContainerClient;
let tf: ContainerClient;
const stops: (() => void)[] = [];
beforeAll(async () => {
  az = await startAzurite();
  hosts = await az.container('azure-webjobs-hosts');
  tf = await az.container('tfstate');
}, 30_000);
afterAll(async () => {
  stops.forEach((stop) => stop());
  await az?.stop();
});

/** The store with the longest fixed lease set to the 15 s these singletons take (Azure's is 60 s). */
const storeOf = (c: ContainerClient) =>
  judgedStore(
    new AzureLockStore({
      blobs: new AzureBlobs(c, `azure://devstoreaccount1/${c.containerName}/`, az.url),
      account: 'devstoreaccount1',
      container: c.containerName,
      maxFixedLeaseMs: 15_000,
    }),
  );

async function until<T>(fn: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('Azure lease holders', () => {
  it('judges a renewed WebJobs singleton alive, a dead host’s unknown until its lease runs out', async () => {
    const live = await webjobsSingleton(hosts, 'locks/host-1/App.Functions.Nightly', { instance: randomUUID() });
    stops.push(live.stop);
    const dead = await webjobsSingleton(hosts, 'locks/host-1/App.Functions.Report.Listener', { seconds: 15 });
    dead.stop(); // its host died: nobody renews the lease
    const store = storeOf(hosts);
    const lockOf = async (name: string) => (await store.list()).locks.find((l) => l.name === name);
    const first = (await lockOf('locks/host-1/App.Functions.Report.Listener'))!;
    expect(first.verdict).toBe('unknown');
    expect(first.sentence).toMatch(
      /^Unknown: seen leased for \d+ s; a fixed lease still leased after 15 s proves renewal/,
    );
    expect(first.settleMs).toBeGreaterThan(1000);
    expect(first.settleMs).toBeLessThanOrEqual(16_000);

    const alive = await until(async () => {
      const v = await lockOf('locks/host-1/App.Functions.Nightly');
      return v?.verdict === 'alive' ? v : undefined;
    }, 25_000);
    expect(alive.sentence).toMatch(
      /^Alive: its fixed lease has stayed leased for \d+ s, longer than a fixed lease lasts/,
    );
    expect(alive.evidence?.[0]?.from).toBe('lease state of two reads (List Blobs)');
    // the dead host's lease expired: Azure says available, so it is no lock (the view's job), never "alive"
    await until(async () => ((await lockOf('locks/host-1/App.Functions.Report.Listener')) ? undefined : true), 10_000);
    const after = await store.inspect('locks/host-1/App.Functions.Report.Listener');
    expect(after?.releasable).toBe(false);
    expect(after?.verdict).toBeUndefined();
  }, 60_000);

  it('leaves Terraform’s infinite lease unknown, naming its Who', async () => {
    await terraformLock(tf, 'prod.terraform.tfstate', 'alice@laptop');
    const lock = (await storeOf(tf).inspect('prod.terraform.tfstate'))!;
    expect(lock.verdict).toBe('unknown');
    expect(lock.sentence).toMatch(
      /an infinite lease is never renewed, so Azure cannot show whether its holder \(alice@laptop\) still runs/,
    );
    expect(lock.settleMs).toBeUndefined();
  });
});
