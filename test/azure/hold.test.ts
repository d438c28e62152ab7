// A hold on Azure Blob Storage against Azurite, written as Terraform's azurerm backend locks its state blob: an
// infinite lease whose id is the LockInfo ID and the LockInfo (Who naming the hold, Info the reason) in metadata
// `terraformlockid`. Terraform's own acquire (an infinite lease on the blob) meets 409 while held and succeeds once
// unhold ended it; the state's bytes are never touched; a held blob is refused naming its holder (11).
import type { ContainerClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startAzurite, type TestAzurite } from '../helpers/azurite';

const SOURCE = 'azure://devstoreaccount1/tfstate/';
const STATE = 'prod.terraform.tfstate';
let az: TestAzurite;
let c: ContainerClient;
beforeAll(async () => {
  az = await startAzurite();
  c = await az.container('tfstate');
  await c.getBlockBlobClient(STATE).upload('{"version":4}', 13);
}, 60_000);
afterAll(() => az?.stop());

/** Terraform's azurerm acquire: an infinite lease on the state blob; false when the blob is leased (409). */
async function terraformAcquire(): Promise<boolean> {
  const lease = c.getBlobClient(STATE).getBlobLeaseClient();
  try {
    await lease.acquireLease(-1);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 409) return false;
    throw err;
  }
  await lease.releaseLease();
  return true;
}

describe('lockboard hold on azure://', { timeout: 60_000 }, () => {
  it('leases the state blob with the LockInfo in terraformlockid; Terraform’s acquire meets 409 until unhold', async () => {
    const held = await runCli(
      ['hold', SOURCE, STATE, '--reason', 'INC-77 state move', '--for', '1h', '--operator', 'ida'],
      az.env,
    );
    expect(held.code, held.stderr).toBe(0);
    const props = await c.getBlobClient(STATE).getProperties();
    expect([props.leaseState, props.leaseDuration]).toEqual(['leased', 'infinite']);
    const info = JSON.parse(Buffer.from(props.metadata!.terraformlockid!, 'base64').toString('utf8')) as Record<
      string,
      string
    >;
    expect(info.Who).toMatch(/^ida \(lockboard hold until \d{4}-.*Z\)$/);
    expect(info.Info).toBe('INC-77 state move');
    expect(await terraformAcquire()).toBe(false);
    const again = await runCli(['hold', SOURCE, STATE, '--reason', 'x', '--for', '1h'], az.env);
    expect(again.code).toBe(11);
    expect(again.stderr).toContain('held by ida (lockboard hold until');
    const why = await runCli(['why', SOURCE, STATE], az.env);
    expect(why.stdout).toMatch(/Held on purpose by ida · INC-77 state move · until .* left\)/);
    const end = await runCli(['unhold', SOURCE, STATE], az.env);
    expect(end.code, end.stderr).toBe(0);
    expect(await terraformAcquire()).toBe(true);
    expect((await c.getBlobClient(STATE).downloadToBuffer()).toString()).toBe('{"version":4}');
  });
});
