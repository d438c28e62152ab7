// Azure sources and versions as the registry parses them, and a release whose attempt cannot be recorded: nothing
// is released (stores.md, contract rule 6).
import { describe, expect, it } from 'vitest';
import { AuditWriteError } from '@/lib/lock/errors';
import { openSource, parseSource, splitLockUrl, SourceError } from '@/lib/lock/stores';
import { storeUnavailable } from '@/lib/lock/store-errors';
import { AzureBlobs, AzureLockStore } from '@/lib/lock/stores/azure';
import { AZURE_VERSION, parseAzureVersion } from '@/lib/lock/stores/azure/version';
import { startAzurite } from '../helpers/azurite';
import { bareLease } from './layouts';

describe('azure:// sources', () => {
  it('parses ACCOUNT/CONTAINER[/PREFIX/] and splits a whole lock URL', () => {
    expect(parseSource('azure://acct1/tfstate/')).toMatchObject({
      kind: 'azure',
      id: 'azure://acct1/tfstate/',
      bucket: 'acct1/tfstate',
      bucketId: 'azure://acct1/tfstate',
      prefix: '',
    });
    expect(parseSource('azure://acct1/azure-webjobs-hosts/locks/').prefix).toBe('locks/');
    expect(splitLockUrl('azure://acct1/tfstate/prod.terraform.tfstateenv:staging')).toEqual({
      source: 'azure://acct1/tfstate/',
      name: 'prod.terraform.tfstateenv:staging',
    });
  });

  it('refuses a bad account, container or prefix, naming the form', () => {
    expect(() => parseSource('azure://Acct/tfstate/')).toThrow(SourceError);
    expect(() => parseSource('azure://acct1/Bad--name/')).toThrow(/not a container name/);
    expect(() => parseSource('azure://acct1/tfstate/locks')).toThrow(/the prefix must end with "\/"/);
    expect(() => parseSource('azure://acct1')).toThrow(/expected azure:\/\/ACCOUNT\/CONTAINER/);
  });

  it('takes ETAG.LEASE versions: a GUID lease id, or the duration when the id is unknown', () => {
    const id = '12ba091d-484d-74c6-b934-2e15d228cc58';
    expect(AZURE_VERSION.test(`0x8DC9A1B2C3D4E5F.${id}`)).toBe(true);
    expect(AZURE_VERSION.test('0x8DC9A1B2C3D4E5F.infinite')).toBe(true);
    expect(AZURE_VERSION.test('0x8DC9A1B2C3D4E5F.fixed')).toBe(true);
    for (const bad of ['0x8DC', '"0x8DC".infinite', '0x8DC.forever', `8DC.${id}`, `0x8DC.${id} `])
      expect(AZURE_VERSION.test(bad), bad).toBe(false);
    expect(parseAzureVersion(`0x1F.${id.toUpperCase()}`)).toEqual({ etag: '0x1F', leaseId: id });
  });
});

describe('an azure:// source without credentials', () => {
  it('tries Entra ID (DefaultAzureCredential), then names every way to give credentials (exit 3, console 503)', async () => {
    const store = await openSource(parseSource('azure://nosuchaccount42/tfstate/'), { env: {}, role: 'cli' });
    const err = (await store.list().catch((e: unknown) => e)) as Error & { code?: string };
    expect(err.message).toMatch(
      /AZURE_STORAGE_CONNECTION_STRING.*AZURE_STORAGE_KEY.*AZURE_STORAGE_SAS_TOKEN.*Entra ID/,
    );
    expect(storeUnavailable(err)).toBeTruthy();
  }, 60_000);
});

describe('a release whose attempt cannot be recorded', () => {
  it('releases nothing and says where the trail is', async () => {
    const az = await startAzurite();
    try {
      const c = await az.container('tfstate');
      await bareLease(c, 'stuck.tfstate');
      class NoTrail extends AzureBlobs {
        override upload(name: string, body: string, o = {}): Promise<string> {
          if (name.startsWith('.lockboard/')) return Promise.reject(new Error('AuthorizationPermissionMismatch'));
          return super.upload(name, body, o);
        }
      }
      const blobs = new NoTrail(c, 'azure://devstoreaccount1/tfstate/', az.url);
      const store = new AzureLockStore({ blobs, account: 'devstoreaccount1', container: 'tfstate' });
      const seen = (await store.inspect('stuck.tfstate'))!;
      const release = store.forceRelease({ name: 'stuck.tfstate', version: seen.version, reason: 'x', operator: 'ci' });
      await expect(release).rejects.toBeInstanceOf(AuditWriteError);
      await expect(release).rejects.toThrow(/audit prefix/);
      expect((await c.getBlobClient('stuck.tfstate').getProperties()).leaseState).toBe('leased');
    } finally {
      await az.stop();
    }
  });
});
