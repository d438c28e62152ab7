// The demo's Azure part on its own (the whole demo builds the console): Azurite started as a child, the crashed
// apply's lease, the stuck lease without lock info, a live WebJobs singleton and Lockboard contenders, each source
// listed through the registry as the console lists it, and Azurite stopped after.
import { describe, expect, it } from 'vitest';
import { startDemoAzure } from '@/lib/demo/azure';
import { Stopper } from '@/lib/demo/stopper';
import { openSource, parseSource } from '@/lib/lock/stores';

describe('the demo’s Azure Blob Storage', { timeout: 90_000 }, () => {
  it('fills Azurite with every Azure format and lists each as a console source', async () => {
    const stop = new Stopper();
    const demo = await startDemoAzure(stop);
    try {
      const names: Record<string, string[]> = {};
      for (const source of demo.sources) {
        const store = await openSource(parseSource(source), { env: demo.env, role: 'console' });
        for (let i = 0; i < 50; i++) {
          names[source] = (await store.list()).locks.map((l) => `${l.formatLabel}: ${l.name}`);
          if (names[source]!.length) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        await store.close();
      }
      expect(names['azure://devstoreaccount1/tfstate/']!.sort()).toEqual([
        'Blob lease (holder unknown): network.terraform.tfstate',
        'Terraform state lock (azurerm): prod.terraform.tfstate',
      ]);
      expect(names['azure://devstoreaccount1/azure-webjobs-hosts/']).toEqual([
        'WebJobs / Functions singleton: locks/orders-func-host/Orders.Functions.NightlyReport',
      ]);
      expect(names['azure://devstoreaccount1/jobs/']).toEqual(['Lockboard lock (Azure lease): locks/invoice-export']);
    } finally {
      stop.stop();
      await Promise.allSettled(demo.loops); // the holders release first, as the demo's own shutdown lets them
      await demo.stop();
    }
  });
});
