// The Azure store on a real Azurite, against the exact layouts of Terraform azurerm, WebJobs and bare leases: one
// List Blobs lists the locks and nothing else; each release path is the pinned mutation of facts-azure.md §1.4; a
// successor is never released or broken and the state blob is never deleted.
import { randomUUID } from 'node:crypto';
import { ContainerClient, newPipeline, StorageSharedKeyCredential } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VersionShapeError } from '@/lib/lock/store';
import { AzureBlobs, AzureLockStore } from '@/lib/lock/stores/azure';
import { DEV_ACCOUNT, DEV_KEY, startAzurite, type TestAzurite } from '../helpers/azurite';
import { delay } from '../helpers/requests';
import { bareLease, STATE, terraformLock, webjobsSingleton } from './layouts';

let az: TestAzurite;
let tf: ContainerClient;
let hosts: ContainerClient;
const stops: (() => void)[] = [];

const storeOf = (c: ContainerClient, o: { maxFixedLeaseMs?: number } = {}) =>
  new AzureLockStore({
    blobs: new AzureBlobs(c, `azure://devstoreaccount1/${c.containerName}/`, az.url),
    account: 'devstoreaccount1',
    container: c.containerName,
    ...o,
  });
const release = (s: AzureLockStore, name: string, version: string) =>
  s.forceRelease({ name, version, reason: 'stuck after a crash', operator: 'ops@example.com' });
const props = (c: ContainerClient, name: string) => c.getBlobClient(name).getProperties();
const body = async (c: ContainerClient, name: string) => (await c.getBlobClient(name).downloadToBuffer()).toString();

beforeAll(async () => {
  az = await startAzurite();
  tf = await az.container('tfstate');
  hosts = await az.container('azure-webjobs-hosts');
});
afterAll(async () => {
  for (const stop of stops) stop();
  await az?.stop();
});

describe('listing an Azure container', () => {
  it('lists Terraform locks (workspaces too), bare leases and WebJobs singletons; never data, stale info or audit blobs', async () => {
    const c = await az.container('listing');
    await terraformLock(c, 'prod.terraform.tfstate', 'alice@laptop');
    await terraformLock(c, 'prod.terraform.tfstateenv:staging', 'bob@ci');
    await bareLease(c, 'net.terraform.tfstate');
    const stale = await terraformLock(c, 'old.terraform.tfstate', 'carol@vm');
    await stale.lease.breakLease(0);
    await c.getBlockBlobClient('data.tfstate.backup').upload(STATE, STATE.length);
    await c.getBlockBlobClient('.lockboard/audit/2026/11/27/20/x.json').upload('{}', 2);
    const store = storeOf(c);
    const page = await store.list();
    const byName = Object.fromEntries(page.locks.map((l) => [l.name, l]));
    expect(Object.keys(byName).sort()).toEqual([
      'net.terraform.tfstate',
      'prod.terraform.tfstate',
      'prod.terraform.tfstateenv:staging',
    ]);
    expect(page.skipped).toBe(3);
    const prod = byName['prod.terraform.tfstate']!;
    expect(prod).toMatchObject({ format: 'terraform', identity: 'alice@laptop', health: 'unknown', store: 'azure' });
    expect(prod.details).toEqual(
      expect.arrayContaining([
        ['Operation', 'OperationTypeApply'],
        ['Workspace', 'default'],
      ]),
    );
    expect(prod.version).toMatch(/^0x[0-9A-F]+\.[0-9a-f-]{36}$/);
    expect(byName['prod.terraform.tfstateenv:staging']!.details).toContainEqual(['Workspace', 'staging']);
    expect(byName['net.terraform.tfstate']).toMatchObject({ format: 'azure-lease', health: 'unknown' });
    expect(byName['net.terraform.tfstate']!.version).toMatch(/\.infinite$/);
    expect(byName['net.terraform.tfstate']!.note).toMatch(/held, lease id unknown/);
    const staleView = await store.inspect('old.terraform.tfstate');
    expect(staleView).toMatchObject({ releasable: false });
    expect(staleView!.note).toMatch(/stale Terraform lock info/i);
    expect((await store.inspect('prod.terraform.tfstate'))!.version).toBe(prod.version);
  });

  it('reads a whole container of locks and data in one List Blobs request: never a request per blob', async () => {
    const c = await az.container('counted');
    for (let i = 0; i < 12; i++) await bareLease(c, `locks/l${i}`);
    for (let i = 0; i < 30; i++) await c.getBlockBlobClient(`data/d${i}`).upload('{}', 2);
    const pipeline = newPipeline(new StorageSharedKeyCredential(DEV_ACCOUNT, DEV_KEY));
    const sent: string[] = [];
    pipeline.factories.unshift({
      create: (next) => ({
        sendRequest: (req) => (sent.push(`${req.method} ${new URL(req.url).search}`), next.sendRequest(req)),
      }),
    });
    const counted = new ContainerClient(`${az.url}/${DEV_ACCOUNT}/counted`, pipeline);
    const page = await storeOf(counted).list();
    expect(page.locks).toHaveLength(12);
    expect(page.skipped).toBe(30);
    expect(sent).toEqual([
      expect.stringMatching(/^GET \?comp=list&maxresults=5000&restype=container&include=metadata$/),
    ]);
  });

  it('pages 5 000 blobs at a time by default and continues with the token', async () => {
    const c = await az.container('paging');
    for (const n of ['a', 'b', 'c']) await bareLease(c, `locks/${n}`);
    const store = storeOf(c);
    const first = await store.list(undefined, { pageSize: 2 });
    expect(first.locks).toHaveLength(2);
    const second = await store.list(first.nextPageToken, { pageSize: 2 });
    expect(second.locks.map((l) => l.name)).toEqual(['locks/c']);
    expect(second.nextPageToken).toBeUndefined();
  });

  it('shows a WebJobs function lock with its FunctionInstance, and listener and host locks without an owner', async () => {
    stops.push((await webjobsSingleton(hosts, 'locks/host-1/App.Functions.Nightly', { instance: randomUUID() })).stop);
    stops.push((await webjobsSingleton(hosts, 'locks/host-1/App.Functions.Queue.Listener', { seconds: 60 })).stop);
    stops.push((await webjobsSingleton(hosts, 'locks/host-1/host', { seconds: 15 })).stop);
    const page = await storeOf(hosts).list();
    const fn = page.locks.find((l) => l.name === 'locks/host-1/App.Functions.Nightly')!;
    expect(fn).toMatchObject({
      format: 'azure-lease',
      formatLabel: 'WebJobs / Functions singleton',
      health: 'healthy',
    });
    expect(fn.identity).toMatch(/^invocation /);
    expect(fn.version).toMatch(/\.fixed$/);
    const listener = page.locks.find((l) => l.name.endsWith('.Listener'))!;
    expect(listener.details).toContainEqual(['Lock', 'a listener lock']);
    expect(listener.identity).toBeUndefined();
    expect(page.locks.find((l) => l.name === 'locks/host-1/host')!.details).toContainEqual([
      'Lock',
      'the host’s primary lock',
    ]);
  });
});

describe('force-releasing a Terraform azurerm lock', () => {
  it('removes the lock info with its lease id and If-Match, releases the lease, keeps the state bytes, and fences the old holder', async () => {
    const { info, blob } = await terraformLock(tf, 'prod.terraform.tfstate', 'alice@laptop');
    const store = storeOf(tf);
    const from = new Date(store.now() - 60_000);
    const seen = (await store.inspect('prod.terraform.tfstate'))!;
    const r = await release(store, 'prod.terraform.tfstate', seen.version);
    expect(r.outcome).toBe('released');
    const p = await props(tf, 'prod.terraform.tfstate');
    expect(p).toMatchObject({ leaseState: 'available', leaseStatus: 'unlocked' });
    expect(Object.keys(p.metadata ?? {})).toEqual([]);
    expect(await body(tf, 'prod.terraform.tfstate')).toBe(STATE);
    // the old holder's next state write carries its lease id: 412
    await expect(blob.upload('{}', 2, { conditions: { leaseId: info.ID } })).rejects.toMatchObject({ statusCode: 412 });
    const events = await store.readAudit(from, new Date(store.now() + 60_000), 'prod.terraform.tfstate');
    expect(events.map((e) => e.event)).toEqual(['force-release-requested', 'force-released']);
    expect(events[1]).toMatchObject({ operator: 'ops@example.com', outcome: 'released' });
    expect((await store.list()).locks.map((l) => l.name)).not.toContain('prod.terraform.tfstate');
    // the next Terraform run takes the lock as usual
    await terraformLock(tf, 'prod.terraform.tfstate', 'bob@ci');
    expect((await store.inspect('prod.terraform.tfstate'))!.identity).toBe('bob@ci');
  });

  it('a successor (another lease id) is changed and kept; a state write by the same holder is refreshed', async () => {
    const first = await terraformLock(tf, 'dev.terraform.tfstate', 'alice@laptop');
    const store = storeOf(tf);
    const seen = (await store.inspect('dev.terraform.tfstate'))!;
    // the same apply writes its state (a new ETag, the same lease): alive, not a successor
    await first.blob.upload('{"serial":4}', 12, {
      conditions: { leaseId: first.info.ID },
      metadata: { Terraformlockid: (await props(tf, 'dev.terraform.tfstate')).metadata!.terraformlockid! },
    });
    expect((await release(store, 'dev.terraform.tfstate', seen.version)).outcome).toBe('refreshed');
    const written = (await store.inspect('dev.terraform.tfstate'))!;
    // alice's run is broken by someone, bob's takes it
    await first.lease.breakLease(0);
    const bob = await terraformLock(tf, 'dev.terraform.tfstate', 'bob@ci');
    const r = await release(store, 'dev.terraform.tfstate', written.version);
    expect(r.outcome).toBe('changed');
    expect(r.current).toMatchObject({ identity: 'bob@ci' });
    const p = await props(tf, 'dev.terraform.tfstate');
    expect(p.leaseState).toBe('leased');
    expect(Buffer.from(p.metadata!.terraformlockid!, 'base64').toString()).toContain(bob.info.ID);
    expect(await body(tf, 'dev.terraform.tfstate')).toBe('{"serial":4}');
  });

  it('refuses a malformed version (a usage error naming the shape) and data with not-a-lock', async () => {
    const store = storeOf(tf);
    await expect(release(store, 'prod.terraform.tfstate', 'zz')).rejects.toBeInstanceOf(VersionShapeError);
    await expect(release(store, 'prod.terraform.tfstate', 'zz')).rejects.toThrow(/an Azure version is ETAG\.LEASE/);
    await tf.getBlockBlobClient('plain.tfstate').upload(STATE, STATE.length);
    const r = await release(store, 'plain.tfstate', '0x1D2.infinite');
    expect(r.outcome).toBe('not-a-lock');
    expect((await props(tf, 'plain.tfstate')).leaseState).toBe('available');
  });
});

describe('breaking a lease whose id is unknown', () => {
  it('clears the stuck lease Terraform cannot (no lock info): re-read, break(0) with If-Match, the blob kept', async () => {
    await bareLease(tf, 'stuck.terraform.tfstate');
    const store = storeOf(tf);
    const from = new Date(store.now() - 60_000);
    const seen = (await store.inspect('stuck.terraform.tfstate'))!;
    expect(seen.formatLabel).toBe('Blob lease (holder unknown)');
    const r = await release(store, 'stuck.terraform.tfstate', seen.version);
    expect(r.outcome).toBe('released');
    expect((await props(tf, 'stuck.terraform.tfstate')).leaseState).toBe('broken');
    expect(await body(tf, 'stuck.terraform.tfstate')).toBe(STATE);
    const events = await store.readAudit(from, new Date(store.now() + 60_000), 'stuck.terraform.tfstate');
    expect(events.map((e) => e.event)).toEqual(['force-release-requested', 'force-released']);
    // Terraform's next Lock() takes the broken lease
    await terraformLock(tf, 'stuck.terraform.tfstate', 'dave@ci');
    expect((await store.inspect('stuck.terraform.tfstate'))!.identity).toBe('dave@ci');
  });

  it('a successor that wrote since (another ETag) is changed and never broken', async () => {
    const first = await bareLease(tf, 'race.terraform.tfstate');
    const store = storeOf(tf);
    const seen = (await store.inspect('race.terraform.tfstate'))!;
    await first.lease.releaseLease();
    const next = await terraformLock(tf, 'race.terraform.tfstate', 'erin@ci');
    const r = await release(store, 'race.terraform.tfstate', seen.version);
    expect(r.outcome).toBe('changed');
    expect((await props(tf, 'race.terraform.tfstate')).leaseState).toBe('leased');
    await next.lease.releaseLease();
  });

  it('refuses to break a fixed lease seen renewed (a live WebJobs host); breaks one not yet proven renewed', async () => {
    const live = await webjobsSingleton(hosts, 'locks/host-2/App.Functions.Report', { instance: randomUUID() });
    stops.push(live.stop);
    const store = storeOf(hosts, { maxFixedLeaseMs: 1_500 });
    const seen = (await store.inspect('locks/host-2/App.Functions.Report'))!;
    await delay(5_000); // past the (shortened) longest lease, and one renewal
    const r = await release(store, 'locks/host-2/App.Functions.Report', seen.version);
    expect(r.outcome).toBe('refreshed');
    expect(r.detail).toMatch(/held by a live renewer/);
    expect(r.audit).toHaveLength(2);
    expect((await props(hosts, 'locks/host-2/App.Functions.Report')).leaseState).toBe('leased');
    const fresh = await webjobsSingleton(hosts, 'locks/host-3/host', { seconds: 60 });
    stops.push(fresh.stop);
    const young = storeOf(hosts);
    const view = (await young.inspect('locks/host-3/host'))!;
    expect((await release(young, 'locks/host-3/host', view.version)).outcome).toBe('released');
    expect((await props(hosts, 'locks/host-3/host')).leaseState).toBe('broken');
  });
});
