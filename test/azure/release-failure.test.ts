// A Terraform lock whose lease release fails for real (#57): Azurite behind an HTTP proxy that answers every Lease
// Blob "release" with Azure's 500 InternalError, as a storage node failing between the two writes would. The lock
// info comes off, the lease stays: the trail holds the attempt and its `force-release-failed` outcome with Azure's
// words, the console's response and the CLI say the blob is left leased without lock info, and a second release
// (now of a lease without lock info) breaks it.
import type { ContainerClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '@/lib/cli';
import { ReleaseIncompleteError } from '@/lib/lock/errors';
import type { LockStore } from '@/lib/lock/store';
import { openSource, parseSource } from '@/lib/lock/stores';
import { errorResponse } from '@/lib/server/api-error';
import { connectionStringFor, startAzurite, type TestAzurite } from '../helpers/azurite';
import { startHttpFaultProxy, type HttpFaultProxy } from '../helpers/http-fault-proxy';
import { STATE, terraformLock } from './layouts';

let az: TestAzurite;
let proxy: HttpFaultProxy;
let c: ContainerClient;
let store: LockStore;
const SOURCE = 'azure://devstoreaccount1/faults/';
const env = () => ({ AZURE_STORAGE_CONNECTION_STRING: connectionStringFor(proxy.url) });

beforeAll(async () => {
  az = await startAzurite();
  c = await az.container('faults');
  proxy = await startHttpFaultProxy(az.url);
  store = await openSource(parseSource(SOURCE, env()), { env: env(), role: 'console' });
}, 30_000);
afterAll(async () => {
  await store?.close();
  await proxy?.stop();
  await az?.stop();
});

/** Azure's answer of a failing node to a Lease Blob release; everything else passes. */
const failLeaseRelease = () =>
  proxy.fail({
    match: (req) =>
      req.method === 'PUT' && /[?&]comp=lease/.test(req.url ?? '') && req.headers['x-ms-lease-action'] === 'release',
    status: 500,
    headers: { 'content-type': 'application/xml', 'x-ms-error-code': 'InternalError' },
    body: '<?xml version="1.0" encoding="utf-8"?><Error><Code>InternalError</Code><Message>The server encountered an internal error. Please retry the request.</Message></Error>',
  });
const trail = async (lock: string) =>
  store.readAudit(new Date(Date.now() - 600_000), new Date(Date.now() + 60_000), lock);
const props = (name: string) => c.getBlobClient(name).getProperties();

/** `lockboard ARGS` run in this process (the compiled dist/ may lag the sources), its environment through the proxy. */
async function cliInProcess(args: string[]): Promise<{ code: number; stderr: string }> {
  const errors: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));
  const before = process.env.AZURE_STORAGE_CONNECTION_STRING;
  process.env.AZURE_STORAGE_CONNECTION_STRING = env().AZURE_STORAGE_CONNECTION_STRING;
  try {
    return { code: await main(args), stderr: errors.join('\n') };
  } finally {
    spy.mockRestore();
    if (before === undefined) delete process.env.AZURE_STORAGE_CONNECTION_STRING;
    else process.env.AZURE_STORAGE_CONNECTION_STRING = before;
  }
}

describe('a Terraform lock whose lease release fails', { timeout: 120_000 }, () => {
  it('records force-release-failed with Azure’s words and says the blob is left leased without lock info', async () => {
    await terraformLock(c, 'prod.terraform.tfstate', 'alice@laptop');
    const seen = (await store.inspect('prod.terraform.tfstate'))!;
    failLeaseRelease();
    const err = await store
      .forceRelease({ name: seen.name, version: seen.version, reason: 'crashed apply', operator: 'ops' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReleaseIncompleteError);
    expect((err as Error).message).toMatch(/InternalError/);
    expect((err as Error).message).toMatch(/The blob is left leased without lock info/);
    expect(proxy.failed()).toBeGreaterThanOrEqual(3); // three release attempts (each with the SDK's own retries)
    const events = await trail(seen.name);
    expect(events.map((e) => e.event)).toEqual(['force-release-requested', 'force-release-failed']);
    expect(events[1]).toMatchObject({ outcome: 'failed', operator: 'ops', reason: 'crashed apply' });
    expect(events[1]!.error).toMatch(
      /^The force-release of "prod\.terraform\.tfstate" failed part-way \(InternalError: /,
    );
    // the state it says: still leased (infinite), no terraformlockid, the state blob untouched
    const p = await props(seen.name);
    expect([p.leaseState, p.leaseDuration]).toEqual(['leased', 'infinite']);
    expect(Object.keys(p.metadata ?? {}).map((k) => k.toLowerCase())).not.toContain('terraformlockid');
    expect((await c.getBlobClient(seen.name).downloadToBuffer()).toString()).toBe(STATE);
    // the console's response names that state (the dialog shows the message)
    const res = errorResponse(err);
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('release_incomplete');
    expect(body.error.message).toMatch(/left leased without lock info.*release that \(it breaks the lease/);
  });

  it('then lists it as a lease without lock info, which a second release breaks', async () => {
    proxy.heal();
    const now = (await store.inspect('prod.terraform.tfstate'))!;
    expect(now.releasable).toBe(true);
    expect(now.format).not.toBe('terraform');
    const r = await store.forceRelease({
      name: now.name,
      version: now.version,
      reason: 'left leased',
      operator: 'ops',
    });
    expect(r.outcome).toBe('released');
    expect((await props(now.name)).leaseState).toBe('broken');
  });

  it('the CLI says the same and exits 1', async () => {
    await terraformLock(c, 'net.terraform.tfstate', 'bob@ci');
    const seen = (await store.inspect('net.terraform.tfstate'))!;
    failLeaseRelease();
    const args = ['--version', seen.version, '--reason', 'crashed apply', '--operator', 'ops'];
    const r = await cliInProcess(['release', SOURCE, 'net.terraform.tfstate', ...args]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/failed part-way \(InternalError: .*The blob is left leased without lock info/);
    expect((await trail(seen.name)).map((e) => e.event)).toEqual(['force-release-requested', 'force-release-failed']);
  });
});
