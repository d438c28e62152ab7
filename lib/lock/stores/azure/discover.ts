// Discovery on Azure Blob Storage: `azure://ACCOUNT` lists the account's containers (a page of up to 5 000 per
// request, with the account's credentials as the store reads them); each is then listed as `ls
// azure://ACCOUNT/CONTAINER/` lists it. Terraform's azurerm backend keeps its lock as a lease on its state blob.
import { folderOf, narrowToFolder, TargetError, type Discovery } from '../discovery';

async function serviceOf(account: string, env: Record<string, string | undefined>) {
  const [{ azureContainer }, sdk] = await Promise.all([import('./client'), import('@azure/storage-blob')]);
  // the account's service through one of its containers' clients: the same endpoint and credentials, one path
  const { client } = await azureContainer(account, 'lockboard', env, 'cli');
  const url = new URL(client.url);
  url.pathname = url.pathname.replace(/\/[^/]*$/, '') || '/';
  return new sdk.BlobServiceClient(url.href, client.credential);
}

export const azureDiscovery: Discovery = {
  target: 'azure://ACCOUNT',
  async roots(target, c) {
    const m = /^azure:\/\/([a-z0-9]{3,24})\/?$/.exec(target);
    if (!m) throw new TargetError(`expected azure://ACCOUNT (a storage account name), got ${JSON.stringify(target)}`);
    const service = await serviceOf(m[1]!, c.env);
    const roots: string[] = [];
    const pages = service.listContainers().byPage({ maxPageSize: Math.min(5000, c.limit) });
    while (roots.length < c.limit) {
      if (!c.spend()) return { roots, problems: [], capped: true };
      const page = await pages.next();
      if (page.done) break;
      roots.push(...page.value.containerItems.map((x) => `azure://${m[1]}/${x.name}/`));
      if (!page.value.continuationToken) return { roots, problems: [] };
    }
    return { roots: roots.slice(0, c.limit), problems: [], capped: true };
  },
  narrow: narrowToFolder,
  terraform(type, a) {
    if (type !== 'azurerm') return undefined;
    if (!a.storage_account_name || !a.container_name)
      return {
        sources: [],
        problems: ['backend "azurerm" names no storage_account_name or container_name (give its -backend-config file)'],
      };
    return { sources: [`azure://${a.storage_account_name}/${a.container_name}/${folderOf(a.key)}`], problems: [] };
  },
};
