// Azure Blob Storage in the registry: azure://ACCOUNT/CONTAINER[/PREFIX/] sources, @azure/storage-blob (and
// @azure/identity for Entra ID) loaded only when a source is opened, credentials as the Azure tools read them.
import { holdOn, isLoopback, runOptions, type OpenOptions, type StoreDefinition } from '../types';
import { connectionStringFields } from './client';
import { AZURE_FORM, containerOf, parseAzureSource, splitAzureLockUrl } from './source';
import { AZURE_VERSION } from './version';
import { azureDiscovery } from './discover';
import { azureFormats } from './lock-formats';

async function blobsFor(spec: Parameters<StoreDefinition['open']>[0], o: OpenOptions) {
  const [{ azureContainer }, { AzureBlobs }] = await Promise.all([import('./client'), import('./blobs')]);
  const { account, container } = containerOf(spec);
  const c = await azureContainer(account, container, o.env, o.role);
  return new AzureBlobs(c.client, spec.id, c.endpoint);
}

export const azure: StoreDefinition = {
  kind: 'azure',
  formats: azureFormats,
  label: 'Azure Blob Storage',
  versionShape: AZURE_VERSION,
  // no change feed reaches an emulator or a plain account: listings are polled (one List Blobs per 5 000 blobs)
  watchIntervalMs: 3_000,
  schemes: ['azure'],
  form: AZURE_FORM,
  credentials:
    'AZURE_STORAGE_CONNECTION_STRING (its BlobEndpoint for Azurite), AZURE_STORAGE_KEY, AZURE_STORAGE_SAS_TOKEN, or Entra ID (DefaultAzureCredential)',
  parse: (url) => parseAzureSource(url),
  splitLockUrl: splitAzureLockUrl,
  discover: azureDiscovery,
  hold: async () => (await import('./hold')).azureHolds(blobsFor),
  configIssues(env, o) {
    // asked only where Azure is configured at all: a demo without Azurite has no Azure source to guard
    const configured = ['AZURE_STORAGE_CONNECTION_STRING', 'AZURE_STORAGE_KEY', 'AZURE_STORAGE_SAS_TOKEN'].some(
      (v) => env[v],
    );
    const endpoint = connectionStringFields(env.AZURE_STORAGE_CONNECTION_STRING ?? '').BlobEndpoint;
    if (o.demo && configured && !isLoopback(endpoint))
      return [
        {
          variable: 'LOCKBOARD_DEMO',
          message:
            'demo mode only runs against a local Azurite (AZURE_STORAGE_CONNECTION_STRING with a BlobEndpoint on 127.0.0.1), never real Azure',
        },
      ];
    return [];
  },
  async open(spec, o) {
    const [{ AzureLockStore }, blobs] = await Promise.all([import('./store'), blobsFor(spec, o)]);
    const { account, container } = containerOf(spec);
    return new AzureLockStore({
      blobs,
      account,
      container,
      prefix: spec.prefix,
      ...(o.auditPrefix ? { auditPrefix: o.auditPrefix } : {}),
      ...(o.longHeldMs !== undefined ? { longHeldMs: o.longHeldMs } : {}),
    });
  },
  async acquire(spec, name, o) {
    const [{ acquireAzureLock }, { AzureLockStore }, blobs] = await Promise.all([
      import('./acquire'),
      import('./store'),
      blobsFor(spec, o),
    ]);
    const { account, container } = containerOf(spec);
    const trail = new AzureLockStore({
      blobs,
      account,
      container,
      ...(o.auditPrefix ? { auditPrefix: o.auditPrefix } : {}),
    });
    const key = name.startsWith(spec.prefix) ? name : spec.prefix + name;
    return holdOn({
      name: `azure://${account}/${container}/${key}`,
      close: () => undefined,
      acquire: () =>
        acquireAzureLock({
          client: blobs,
          name: key,
          ...runOptions(o),
          ...(o.auditPrefix ? { audit: { prefix: o.auditPrefix } } : {}),
        }),
      async release(lock, details) {
        const outcome = await lock.release();
        await trail.record({ event: 'released', lock: key, generation: lock.fencingToken, ...details }).catch(() => '');
        return outcome;
      },
    });
  },
};
