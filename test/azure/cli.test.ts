// The lockboard command on azure:// sources, as real processes against Azurite: ls and status of a crashed Terraform
// apply's lease, release by the version status printed (byte for byte), the lease without lock info broken, and run
// holding Lockboard's own lease lock with a fencing token while a second run waits.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContainerClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzurite, type TestAzurite } from '../helpers/azurite';
import { runCli, startCli } from '../helpers/cli';
import { bareLease, STATE, terraformLock } from './layouts';

let az: TestAzurite;
let c: ContainerClient;
const SOURCE = 'azure://devstoreaccount1/tfstate/';
beforeAll(async () => {
  az = await startAzurite();
  c = await az.container('tfstate');
}, 30_000);
afterAll(() => az?.stop());
const cli = (...args: string[]) => runCli(args, az.env);

// Each CLI run is a process of its own (1–3 s on a loaded machine): the tests get the time they need
describe('lockboard on azure:// sources', { timeout: 120_000 }, () => {
  it('lists and shows a crashed apply’s lock, releases it by the version shown, and keeps the state blob', async () => {
    await terraformLock(c, 'prod.terraform.tfstate', 'alice@laptop');
    await bareLease(c, 'net.terraform.tfstate');
    const ls = await cli('ls', SOURCE);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toMatch(/prod\.terraform\.tfstate/);
    expect(ls.stdout).toMatch(/net\.terraform\.tfstate/);
    const status = await cli('status', SOURCE, 'prod.terraform.tfstate', '--json');
    expect(status.code, status.stderr).toBe(0);
    const view = JSON.parse(status.stdout) as { version: string; identity: string; store: string };
    expect(view).toMatchObject({ store: 'azure', identity: 'alice@laptop' });
    const args = ['--reason', 'crashed apply', '--operator', 'ops'];
    const r = await cli('release', SOURCE, 'prod.terraform.tfstate', '--version', view.version, ...args);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((await c.getBlobClient('prod.terraform.tfstate').downloadToBuffer()).toString()).toBe(STATE);
    expect((await cli('status', SOURCE, 'prod.terraform.tfstate')).code).toBe(13);
    // the same release again: the lock it named is gone (12), not "not a lock" (#48), and nothing is touched
    const again = await cli('release', SOURCE, 'prod.terraform.tfstate', '--version', view.version, ...args);
    expect(again.code, again.stdout + again.stderr).toBe(12);
    expect((await c.getBlobClient('prod.terraform.tfstate').downloadToBuffer()).toString()).toBe(STATE);
    const bare = JSON.parse((await cli('status', SOURCE, 'net.terraform.tfstate', '--json')).stdout) as {
      version: string;
    };
    expect(bare.version).toMatch(/\.infinite$/);
    const broke = await cli('release', `${SOURCE}net.terraform.tfstate`, '--version', bare.version, ...args);
    expect(broke.code, broke.stdout + broke.stderr).toBe(0);
    expect((await c.getBlobClient('net.terraform.tfstate').getProperties()).leaseState).toBe('broken');
    const bad = await cli('release', SOURCE, 'net.terraform.tfstate', '--version', '42', ...args);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/an Azure version is ETAG\.LEASE/);
  });

  it('runs a command under an Azure lease lock with a fencing token; --no-wait fails fast (75) while it is held', async () => {
    // the command holds the lock until the test has seen it held (a CLI run takes seconds on a loaded machine)
    const done = join(mkdtempSync(join(tmpdir(), 'lockboard-azure-')), 'done');
    const script = `echo token=$LOCKBOARD_FENCING_TOKEN; while [ ! -e ${done} ]; do sleep 0.2; done`;
    const hold = startCli(
      ['run', '--source', SOURCE, 'locks/nightly', '--ttl', '15s', '--', 'sh', '-c', script],
      az.env,
    );
    let status;
    for (let i = 0; i < 60; i++) {
      status = await cli('status', SOURCE, 'locks/nightly', '--json');
      if (status.code === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status!.code, status!.stderr).toBe(0);
    expect(JSON.parse(status!.stdout)).toMatchObject({ format: 'lockboard', store: 'azure', health: 'healthy' });
    const busy = await cli('run', '--source', SOURCE, 'locks/nightly', '--no-wait', '--', 'true');
    expect(busy.code).toBe(75);
    writeFileSync(done, '');
    const finished = await hold.done;
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stdout).toMatch(/token=[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect((await cli('status', SOURCE, 'locks/nightly')).code).toBe(10);
  });

  it('refuses a malformed source with exit 2 naming the form, and a wrong account with exit 3', async () => {
    const bad = await cli('ls', 'azure://Bad_Account/x');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a storage account name/);
    const other = await cli('ls', 'azure://otheraccount/tfstate/');
    expect(other.code).toBe(3);
    expect(other.stderr).toMatch(/AZURE_STORAGE_CONNECTION_STRING is for the account "devstoreaccount1"/);
  });
});
