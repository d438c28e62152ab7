// The contract on Azure Blob Storage: a real Azurite (npm azurite 3.35), the dev account through a connection string,
// Lockboard's own lease lock (a fixed lease whose id is its token, renewed) held by alice and then by bob, and a
// Terraform state blob with no lease as what is not a lock. Blob leases queue no contenders: no queue harness.
// (Terraform's azurerm lease, WebJobs singletons and the break path are test/azure's.)
import { acquireAzureLock, type AzureLock } from '@/lib/lock/stores/azure';
import { startAzurite } from '../helpers/azurite';
import type { Harness } from './harnesses';

export async function azureHarness(): Promise<Harness> {
  const azurite = await startAzurite();
  const container = await azurite.container('contract');
  const lock = 'locks/nightly';
  let holder: AzureLock | undefined;
  const take = async (identity: string) => {
    holder = await acquireAzureLock({ client: container, name: lock, identity, ttlMs: 30_000, timeoutMs: 10_000 });
  };
  return {
    kind: 'azure',
    source: 'azure://devstoreaccount1/contract/locks/',
    env: azurite.env,
    lock,
    notALock: 'locks/prod.terraform.tfstate',
    async hold() {
      await take('alice@laptop');
      const state = JSON.stringify({ version: 4, resources: [] });
      await container.getBlockBlobClient('locks/prod.terraform.tfstate').upload(state, state.length);
    },
    async successor() {
      await holder!.release();
      await take('bob@ci');
    },
    async stop() {
      await holder?.release().catch(() => undefined);
      await azurite.stop();
    },
  };
}
