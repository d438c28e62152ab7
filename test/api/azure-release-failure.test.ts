// The console's release of a Terraform lock on Azure whose lease release fails for real (#57), through the route
// handler: Azurite behind an HTTP proxy answering every Lease Blob release with Azure's 500 InternalError. The response
// (what the dialog shows) says the blob is left leased without lock info and how to clear it; the lock's history
// holds the attempt and its failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockInfo } from '@/lib/lock';
import { connectionStringFor, startAzurite, type TestAzurite } from '../helpers/azurite';
import { startHttpFaultProxy, type HttpFaultProxy } from '../helpers/http-fault-proxy';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { terraformLock } from '../azure/layouts';

const OPERATOR = 'ops@example.com';
const SOURCE = 'azure://devstoreaccount1/tfstate/';
let az: TestAzurite;
let proxy: HttpFaultProxy;
let routes: Routes;

beforeAll(async () => {
  az = await startAzurite();
  proxy = await startHttpFaultProxy(az.url);
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: SOURCE,
    AZURE_STORAGE_CONNECTION_STRING: connectionStringFor(proxy.url),
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 60_000);
afterAll(async () => {
  delete process.env.AZURE_STORAGE_CONNECTION_STRING;
  await proxy?.stop();
  await az?.stop();
});

describe('an Azure release left half done', () => {
  it('answers 502 saying the blob is left leased without lock info, and the history shows the failure', async () => {
    await terraformLock(await az.container('tfstate'), 'prod.terraform.tfstate', 'alice@laptop');
    const listed = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    const lock = (listed.json.locks as (LockInfo & { version: string })[]).find(
      (l) => l.name === 'prod.terraform.tfstate',
    )!;
    proxy.fail({
      match: (req) => req.method === 'PUT' && req.headers['x-ms-lease-action'] === 'release',
      status: 500,
      headers: { 'content-type': 'application/xml', 'x-ms-error-code': 'InternalError' },
      body: '<?xml version="1.0" encoding="utf-8"?><Error><Code>InternalError</Code><Message>The server encountered an internal error.</Message></Error>',
    });
    const res = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { source: SOURCE, name: lock.name, version: lock.version, acknowledgeAlive: true, reason: 'crashed apply' },
    });
    proxy.heal();
    expect(res.status, res.text).toBe(502);
    const error = res.json.error as { code: string; message: string };
    expect(error.code).toBe('release_incomplete');
    expect(error.message).toMatch(/failed part-way \(InternalError: .*\)\. The blob is left leased without lock info/);
    expect(error.message).toMatch(/release that \(it breaks the lease/);
    // the trail as the console reads it (GET /api/audit): the attempt, then its failure with Azure's words
    const audit = await call(routes.audit.GET, '/api/audit', { as: OPERATOR });
    const events = (audit.json.events as { event: string; lock: string; error?: string }[]).filter(
      (e) => e.lock === lock.name,
    );
    expect(events.map((e) => e.event)).toEqual(['force-release-failed', 'force-release-requested']); // newest first
    expect(events[0]!.error).toMatch(/InternalError/);
  });
});
