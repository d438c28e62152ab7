// lockboard discover on Azurite: azure://ACCOUNT lists the account's containers (with the credentials the store
// reads: AZURE_STORAGE_CONNECTION_STRING), each listed as `ls azure://ACCOUNT/CONTAINER/` lists it, so Terraform's
// azurerm lock (a lease on its state blob) is found under its folder with the format ls names; a container of
// other blobs is not a candidate; nothing is written (every blob's ETag and lease state unchanged).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNT, startAzurite, type TestAzurite } from '../helpers/azurite';
import { discover, lsFormats } from '../cli/discover-fixtures';
import { terraformLock } from './layouts';

let az: TestAzurite;

/** Every blob of every container with its ETag and lease state: a write of any kind changes it. */
async function contents(): Promise<string[]> {
  const out: string[] = [];
  for await (const c of az.service.listContainers())
    for await (const b of az.service.getContainerClient(c.name).listBlobsFlat({ includeMetadata: true }))
      out.push(`${c.name}/${b.name} ${b.properties.etag} ${b.properties.leaseState}`);
  return out.sort();
}

beforeAll(async () => {
  az = await startAzurite();
  await terraformLock(await az.container('tfstate'), 'envs/prod/terraform.tfstate', 'alice@ci');
  const data = await az.container('exports');
  for (let i = 0; i < 30; i++) await data.getBlockBlobClient(`part-${i}.csv`).upload('a,b\n', 4);
}, 60_000);
afterAll(async () => az?.stop());

describe('lockboard discover azure://ACCOUNT', () => {
  it("finds the azurerm backend's lock under its folder with ls's format, not the data container, writing nothing", async () => {
    const before = await contents();
    const { report, bySource } = await discover(`azure://${DEV_ACCOUNT}`, {}, az.env);
    expect(report.unreachable).toBeUndefined();
    expect(report.roots).toBe(2);
    const source = `azure://${DEV_ACCOUNT}/tfstate/envs/`;
    expect(Object.keys(bySource)).toEqual([source]);
    expect(bySource[source]!.formats).toEqual(await lsFormats(source, az.env));
    expect(bySource[source]!.locks).toBe(1);
    expect(await contents()).toEqual(before);
  });

  it('reads at most the sample, each container its share, and says so', async () => {
    const { report } = await discover(`azure://${DEV_ACCOUNT}`, { sample: 10 }, az.env);
    expect(report.sampled).toBeLessThanOrEqual(10);
    expect(report.cappedBy).toBe('sample');
  });
});
