// An Azure source in the console, through the route handlers, against Azurite: a Terraform azurerm lock and a
// Lockboard lock listed with their store, source and ETAG.LEASE versions (the state's data blobs skipped), a query, the
// lock page by bucket, a release conditioned on the version (a stale one releases nothing: 409 with the successor; a
// version of another store's shape 400), and the release in the lock's history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockInfo } from '@/lib/lock';
import { acquireAzureLock, type AzureLock } from '@/lib/lock/stores/azure';
import { AZURE_VERSION } from '@/lib/lock/stores/azure/version';
import { startAzurite, type TestAzurite } from '../helpers/azurite';
import { call, routesFor, type Routes } from '../helpers/routes';
import { STATE, terraformLock } from '../azure/layouts';

const OPERATOR = 'ops@example.com';
const VIEWER = 'viewer@example.com';
const SOURCE = 'azure://devstoreaccount1/tfstate/';
const BUCKET = 'azure://devstoreaccount1/tfstate';
const TF = 'prod.terraform.tfstate';
let az: TestAzurite;
let routes: Routes;
let own: AzureLock;

type View = LockInfo & { store: string; version: string; source: string };

beforeAll(async () => {
  az = await startAzurite();
  const c = await az.container('tfstate');
  await terraformLock(c, TF, 'alice@laptop');
  await c.getBlockBlobClient('dev.terraform.tfstate').upload(STATE, STATE.length); // data, not a lock
  own = await acquireAzureLock({ client: c, name: 'jobs/nightly', identity: 'cron-1', ttlMs: 60_000 });
  routes = await routesFor(SOURCE, OPERATOR, {
    AZURE_STORAGE_CONNECTION_STRING: az.connectionString,
    LOCKBOARD_VIEWERS: VIEWER,
  });
}, 60_000);
afterAll(async () => {
  delete process.env.AZURE_STORAGE_CONNECTION_STRING;
  await own?.release().catch(() => undefined);
  await az?.stop();
});

const list = async (query = '') =>
  (await call(routes.locks.GET, `/api/locks?source=${encodeURIComponent(SOURCE)}${query}`, { as: VIEWER })).json
    .locks as View[];
const release = (body: Record<string, unknown>) =>
  call(routes.release.POST, '/api/locks/release', {
    as: OPERATOR,
    method: 'POST',
    body: { source: SOURCE, name: TF, acknowledgeAlive: true, reason: 'crashed apply', ...body },
  });

describe('Azure sources in the console', () => {
  it('lists the Terraform lock and the Lockboard lock with their store and ETAG.LEASE versions, never data', async () => {
    const all = await call(routes.locks.GET, '/api/locks?source=all', { as: VIEWER });
    expect(all.status, all.text).toBe(200);
    const locks = all.json.locks as View[];
    expect(locks.map((l) => [l.store, l.source, l.name, l.format, l.identity]).sort()).toEqual([
      ['azure', SOURCE, 'jobs/nightly', 'lockboard', 'cron-1'],
      ['azure', SOURCE, TF, 'terraform', 'alice@laptop'],
    ]);
    for (const l of locks) expect(AZURE_VERSION.test(l.version), l.version).toBe(true);
    expect((await list('&q=NIGHTLY')).map((l) => l.name)).toEqual(['jobs/nightly']);
  });

  it('shows one Azure lock by name and bucket, and a free one as absent', async () => {
    const page = (name: string) =>
      call(
        routes.lock.GET,
        `/api/locks/${name}?bucket=${encodeURIComponent(BUCKET)}`,
        { as: VIEWER },
        {
          name: name.split('/'),
        },
      );
    const r = await page(TF);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ store: 'azure', identity: 'alice@laptop', format: 'terraform' });
    expect((r.json as unknown as View).version).toBe((await list()).find((l) => l.name === TF)!.version);
    expect((await page('jobs/none')).json).toMatchObject({ absent: true });
  });

  it('releases only at the version seen: 409 with the successor for a stale one, 400 for a wrong shape', async () => {
    const seen = (await list()).find((l) => l.name === TF)!;
    const c = await az.container('tfstate');
    await c.getBlockBlobClient(TF).getBlobLeaseClient().breakLease(0); // the first holder's lease broken
    await terraformLock(c, TF, 'bob@ci'); // a successor takes the lock
    const stale = await release({ version: seen.version });
    expect(stale.status, stale.text).toBe(409);
    expect((stale.json.current as View).identity).toBe('bob@ci');
    const wrong = await release({ version: '12.1' });
    expect(wrong.status, wrong.text).toBe(400);
    expect((wrong.json.error as { message: string }).message).toMatch(/not a version of azure:/);
    const done = await release({ version: (stale.json.current as View).version });
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ outcome: 'released' });
    expect((await list()).map((l) => l.name)).toEqual(['jobs/nightly']);
  });

  it('reads the release into the lock history', async () => {
    // Azure stamps events on its own clock (whole seconds in its Date header): ask for a window reaching past now
    const to = encodeURIComponent(new Date(Date.now() + 5_000).toISOString());
    const r = await call(
      routes.audit.GET,
      `/api/audit?lock=${encodeURIComponent(TF)}&bucket=${encodeURIComponent(BUCKET)}&to=${to}`,
      { as: VIEWER },
    );
    expect(r.status, r.text).toBe(200);
    expect((r.json.events as { event: string }[]).map((e) => e.event).sort()).toEqual([
      'force-release-requested',
      'force-released',
    ]);
  });
});
