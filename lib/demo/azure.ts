// The demo's Azure Blob Storage: Azurite (npm, a child process on a free loopback port, its blobs in the data
// directory where given so the audit trail outlives a restart, the last run's locks cleared; stopped with the demo) holding a crashed Terraform apply's lease (azurerm layout), the stuck lease Terraform cannot clear (no lock
// info), a live WebJobs singleton renewed by a simulated host, and Lockboard's own lease lock taken by contenders.
import { spawnGroup } from './children';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { BlobServiceClient, type ContainerClient } from '@azure/storage-blob';
import { mkdirSync } from 'node:fs';
import { DEFAULT_AUDIT_PREFIX } from '../lock/holding/options';
import { withAzureLock } from '../lock/stores/azure';
import { sleep } from './sleep';
import type { Stopper } from './stopper';

const ACCOUNT = 'devstoreaccount1';
const KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const STATE = JSON.stringify({ version: 4, terraform_version: '1.11.4', serial: 41, resources: [] });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

async function startAzurite(port: number, dir: string | undefined) {
  const main = join(dirname(createRequire(import.meta.url).resolve('azurite/package.json')), 'dist/src/blob/main.js');
  const kept = dir ? ['--location', dir] : ['--inMemoryPersistence'];
  const args = ['--blobHost', '127.0.0.1', '--blobPort', String(port), ...kept, '--loose'];
  const child = spawnGroup(process.execPath, [main, ...args, '--skipApiVersionCheck', '--disableTelemetry'], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600 && child.exitCode === null; i++) {
    if (
      await fetch(`${url}/${ACCOUNT}?comp=list`).then(
        () => true,
        () => false,
      )
    )
      return { child, url };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error('Azurite did not start (npm install azurite@~3.35.0)');
}

/** Terraform azurerm's Lock() of an apply killed 3 hours ago: an infinite lease whose id is the LockInfo ID. */
async function crashedApply(c: ContainerClient, key: string) {
  const blob = c.getBlockBlobClient(key);
  await blob.upload(STATE, STATE.length);
  const info = {
    ID: randomUUID(),
    Operation: 'OperationTypeApply',
    Info: '',
    Who: 'runner@gha-prod-7',
    Version: '1.11.4',
    Created: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    Path: `${c.containerName}/${key}`,
  };
  await blob.getBlobLeaseClient(info.ID).acquireLease(-1);
  const encoded = Buffer.from(JSON.stringify(info)).toString('base64');
  await blob.setMetadata({ Terraformlockid: encoded }, { conditions: { leaseId: info.ID } });
}

/** A WebJobs host renewing its singleton's 15 s lease every 5 s, with the invocation in FunctionInstance. */
async function liveSingleton(c: ContainerClient, name: string, signal: AbortSignal) {
  const blob = c.getBlockBlobClient(name);
  await blob.upload('', 0);
  const lease = blob.getBlobLeaseClient();
  await lease.acquireLease(15);
  await blob.setMetadata({ FunctionInstance: randomUUID() }, { conditions: { leaseId: lease.leaseId } });
  while (!signal.aborted) {
    await sleep(5_000, signal);
    if (!signal.aborted) await lease.renewLease().catch(() => undefined);
  }
}

/** The last run's blobs but Lockboard's trail (.lockboard/audit/ in each container): its leases broken, deleted. */
async function clearAllButTrail(service: BlobServiceClient): Promise<void> {
  for await (const container of service.listContainers()) {
    const c = service.getContainerClient(container.name);
    for await (const blob of c.listBlobsFlat()) {
      if (blob.name.startsWith(DEFAULT_AUDIT_PREFIX)) continue;
      const b = c.getBlobClient(blob.name);
      if (blob.properties.leaseState === 'leased') await b.getBlobLeaseClient().breakLease(0);
      await b.delete();
    }
  }
}

export async function startDemoAzure(stop: Stopper, dataDir?: string) {
  const dir = dataDir && join(dataDir, 'azurite');
  if (dir) mkdirSync(dir, { recursive: true });
  const { child, url } = await startAzurite(await freePort(), dir);
  const connectionString = `DefaultEndpointsProtocol=http;AccountName=${ACCOUNT};AccountKey=${KEY};BlobEndpoint=${url}/${ACCOUNT};`;
  // few retries: at shutdown the holders' last requests meet a stopped Azurite
  const service = BlobServiceClient.fromConnectionString(connectionString, { retryOptions: { maxTries: 2 } });
  await clearAllButTrail(service);
  const [tf, hosts, jobs] = ['tfstate', 'azure-webjobs-hosts', 'jobs'].map((n) => service.getContainerClient(n));
  for (const c of [tf!, hosts!, jobs!]) await c.createIfNotExists();
  await crashedApply(tf!, 'prod.terraform.tfstate');
  await tf!.getBlockBlobClient('prod.terraform.tfstateenv:staging').upload(STATE, STATE.length); // data
  const stuck = tf!.getBlockBlobClient('network.terraform.tfstate');
  await stuck.upload(STATE, STATE.length);
  await stuck.getBlobLeaseClient(randomUUID()).acquireLease(-1); // lease, no lock info: Terraform cannot clear it
  const loops = [
    liveSingleton(hosts!, 'locks/orders-func-host/Orders.Functions.NightlyReport', stop.signal()).catch(
      () => undefined,
    ),
    ...[0, 1].map(async (i) => {
      const signal = stop.signal();
      while (!signal.aborted) {
        await withAzureLock(
          { client: jobs!, name: 'locks/invoice-export', identity: `exporter-${i}`, purpose: 'invoice export', signal },
          () => sleep(4_000 + Math.random() * 2_000, signal),
        ).catch(() => undefined);
        await sleep(1_000, signal);
      }
    }),
  ];
  return {
    env: { AZURE_STORAGE_CONNECTION_STRING: connectionString },
    sources: [`azure://${ACCOUNT}/tfstate/`, `azure://${ACCOUNT}/azure-webjobs-hosts/`, `azure://${ACCOUNT}/jobs/`],
    loops,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(2_000, new AbortController().signal)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
    kill: () => child.kill('SIGKILL'),
  };
}
