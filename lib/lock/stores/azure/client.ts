// The one Azure client factory: a ContainerClient for azure://ACCOUNT/CONTAINER, with credentials as the Azure tools
// read them (az storage, Storage Explorer): AZURE_STORAGE_CONNECTION_STRING (its BlobEndpoint reaches Azurite or a
// sovereign cloud), AZURE_STORAGE_KEY, AZURE_STORAGE_SAS_TOKEN, else Entra ID through @azure/identity's
// DefaultAzureCredential. The SDKs are loaded here, only when an azure:// source is opened.
import type { ContainerClient, StoragePipelineOptions } from '@azure/storage-blob';
import { missingSdk } from '../types';

interface AzureContainer {
  client: ContainerClient;
  /** The blob endpoint, for messages (never with a SAS or a key). */
  endpoint: string;
}

type Env = Record<string, string | undefined>;

/** `Key=Value;…` pairs of a connection string (keys as written). */
export function connectionStringFields(cs: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of cs.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return out;
}

function configError(message: string): Error {
  return Object.assign(new Error(message), { code: 'CONFIG' });
}

async function loadSdk(): Promise<typeof import('@azure/storage-blob')> {
  try {
    return await import('@azure/storage-blob');
  } catch {
    throw missingSdk('azure:// sources', '@azure/storage-blob');
  }
}

async function entraCredential() {
  try {
    const { DefaultAzureCredential } = await import('@azure/identity');
    return new DefaultAzureCredential();
  } catch {
    throw missingSdk(
      'azure:// sources signed in with Entra ID (no AZURE_STORAGE_KEY, SAS or connection string)',
      '@azure/identity',
    );
  }
}

export async function azureContainer(
  account: string,
  container: string,
  env: Env,
  role: 'console' | 'cli',
): Promise<AzureContainer> {
  const sdk = await loadSdk();
  const options: StoragePipelineOptions = {
    retryOptions: { maxTries: role === 'cli' ? 2 : 3, tryTimeoutInMs: 15_000, retryDelayInMs: 200 },
  };
  const cs = env.AZURE_STORAGE_CONNECTION_STRING;
  if (cs) {
    const fields = connectionStringFields(cs);
    if (fields.AccountName && fields.AccountName !== account)
      throw configError(
        `AZURE_STORAGE_CONNECTION_STRING is for the account "${fields.AccountName}", the source names "${account}"`,
      );
    const service = sdk.BlobServiceClient.fromConnectionString(cs, options);
    const endpoint = fields.BlobEndpoint ?? service.url.split('?')[0]!;
    return { client: service.getContainerClient(container), endpoint };
  }
  const endpoint = `https://${account}.blob.core.windows.net`;
  if (env.AZURE_STORAGE_KEY) {
    const credential = new sdk.StorageSharedKeyCredential(account, env.AZURE_STORAGE_KEY);
    return { client: new sdk.ContainerClient(`${endpoint}/${container}`, credential, options), endpoint };
  }
  const sas = env.AZURE_STORAGE_SAS_TOKEN?.replace(/^\?/, '');
  if (sas)
    return {
      client: new sdk.ContainerClient(`${endpoint}/${container}?${sas}`, new sdk.AnonymousCredential(), options),
      endpoint,
    };
  const credential = await entraCredential();
  return { client: new sdk.ContainerClient(`${endpoint}/${container}`, credential, options), endpoint };
}
