// Azure sources: azure://ACCOUNT/CONTAINER[/PREFIX/] (a storage account, one of its containers, and a blob-name
// prefix ending in "/"); azure://ACCOUNT/CONTAINER/NAME names one lock (a path that does not end in "/").
import type { SourceSpec } from '../types';

const URL_FORM = /^azure:\/\/([^/?#]*)\/([^/?#]*)(?:\/([^?#]*))?$/;
/** Storage account names: 3–24 lower-case letters and digits. */
const ACCOUNT = /^[a-z0-9]{3,24}$/;
/** Container names: 3–63 of lower-case letters, digits and single dashes, a letter or digit at each end. */
const CONTAINER = /^(?!.*--)[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

export const AZURE_FORM = 'azure://ACCOUNT/CONTAINER[/PREFIX/]';

export function parseAzureSource(url: string): SourceSpec {
  const m = URL_FORM.exec(url);
  if (!m) throw new Error(`expected ${AZURE_FORM}, got ${JSON.stringify(url)}`);
  const [, account = '', container = '', prefix = ''] = m;
  if (!ACCOUNT.test(account))
    throw new Error(`${JSON.stringify(account)} is not a storage account name (3–24 lower-case letters and digits)`);
  if (!CONTAINER.test(container))
    throw new Error(`${JSON.stringify(container)} is not a container name (3–63 lower-case letters, digits, dashes)`);
  if (prefix && (!prefix.endsWith('/') || prefix.startsWith('/')))
    throw new Error(`"${url}": the prefix must end with "/" (azure://${account}/${container}/${prefix}/)`);
  return {
    kind: 'azure',
    id: `azure://${account}/${container}/${prefix}`,
    bucket: `${account}/${container}`,
    bucketId: `azure://${account}/${container}`,
    prefix,
    url: `azure://${account}/${container}/`,
  };
}

/** `azure://ACCOUNT/CONTAINER/NAME` → the container's source and the blob's name; undefined for a source. */
export function splitAzureLockUrl(url: string): { source: string; name: string } | undefined {
  const m = URL_FORM.exec(url);
  if (!m || !m[3] || m[3].endsWith('/')) return undefined;
  return { source: `azure://${m[1]}/${m[2]}/`, name: m[3] };
}

/** The account and container of a parsed source. */
export function containerOf(spec: Pick<SourceSpec, 'bucket'>): { account: string; container: string } {
  const [account = '', container = ''] = spec.bucket.split('/');
  return { account, container };
}
