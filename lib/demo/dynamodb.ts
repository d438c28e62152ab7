// The demo's DynamoDB: dynalite (npm, in this process) with Terraform's lock table holding the lock of a crashed
// apply and its state digest (not a lock), a lock-client table with a lease that heartbeats, one whose holder died
// and a FailClosed lock that never expires, and Lockboard's own DynamoDB locks taken by contenders.
import {
  DeleteTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  PutItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createTable, withDynamoLock } from '../lock/stores/dynamodb';
import { background } from './background';
import { pause } from './shutdown';
import { sleep } from './sleep';
import type { Stopper } from './stopper';

export interface DemoDynamo {
  endpoint: string;
  sources: string[];
  loops: Promise<void>[];
  stop(): Promise<void>;
}

const S = (s: string) => ({ S: s });
const AUDIT_TABLE = 'lockboard-audit';

type Put = (table: string, item: Record<string, AttributeValue>) => Promise<unknown>;

/** dynalite, its tables kept in `dir` where given (the audit table outlives a restart), else in memory. */
async function startDynalite(port: number, dir: string | undefined) {
  if (dir) mkdirSync(dir, { recursive: true });
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(dir ? { path: dir } : {}) });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return { server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Terraform's lock of a crashed apply beside its digest (not a lock). */
async function seedTerraform(put: Put): Promise<void> {
  const state = 'tf-state-prod/network/terraform.tfstate';
  const info = {
    ID: randomUUID(),
    Operation: 'OperationTypeApply',
    Info: '',
    Who: 'jenkins@build-12',
    Version: '1.9.8',
    Created: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    Path: state,
  };
  await put('tf-locks', { LockID: S(state), Info: S(JSON.stringify(info)) });
  await put('tf-locks', { LockID: S(`${state}-md5`), Digest: S('7c4a8d09ca3762af61e59520943dc264') });
}

/** lock-client leases: a heartbeating one (see the loop), a dead holder's, a FailClosed lock, and a non-lock item. */
async function seedLockClient(put: Put): Promise<void> {
  const lease = (key: string, ownerName: string, leaseDuration: string) => ({
    key: S(key),
    ownerName: S(ownerName),
    leaseDuration: S(leaseDuration),
    recordVersionNumber: S(randomUUID()),
  });
  await put('app-locks', lease('hudi-commit-orders', 'spark-exec-3f9a', '20000'));
  await put('app-locks', lease('kcl-leader', 'worker-crashed-77', '10000'));
  await put('app-locks', {
    key: S('report-export'),
    ownerName: S('dynamodb-lock-client@0.7.3_ops@batch-1'),
    recordVersionNumber: { B: Buffer.from(randomUUID()) },
  });
  await put('app-locks', { key: S('settings#tenant-42'), theme: S('dark') }); // not a lock
}

/** A Hudi writer that heartbeats every 5 s (a new recordVersionNumber each time), and Lockboard's contenders. */
function holders(client: DynamoDBClient, put: Put, stop: Stopper): Promise<void>[] {
  const heartbeat = background('DynamoDB lease hudi-commit-orders', stop, async (signal) => {
    await sleep(5_000, signal);
    if (signal.aborted) return;
    await put('app-locks', {
      key: S('hudi-commit-orders'),
      ownerName: S('spark-exec-3f9a'),
      leaseDuration: S('20000'),
      recordVersionNumber: S(randomUUID()),
    });
  });
  const contenders = [0, 1].map((i) =>
    background(`DynamoDB contender compactor-${i}`, stop, async (signal) => {
      const lock = { client, table: 'jobs', name: 'nightly-compaction', identity: `compactor-${i}` };
      await withDynamoLock({ ...lock, purpose: 'compaction', ttlMs: 10_000, signal }, () =>
        sleep(3_000 + Math.random() * 2_000, signal),
      ).catch(() => undefined);
      await sleep(1_000, signal);
    }),
  );
  return [heartbeat, ...contenders];
}

/** The last run's lock tables dropped (their locks start afresh); Lockboard's audit table is kept. */
async function dropLockTables(client: DynamoDBClient): Promise<void> {
  const { TableNames = [] } = await client.send(new ListTablesCommand({}));
  for (const TableName of TableNames.filter((t) => t !== AUDIT_TABLE))
    await client.send(new DeleteTableCommand({ TableName }));
}

export async function startDemoDynamo(port: number, stop: Stopper, dataDir?: string): Promise<DemoDynamo> {
  const { server, endpoint } = await startDynalite(port, dataDir && join(dataDir, 'dynamodb'));
  const client = new DynamoDBClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'demo', secretAccessKey: 'demo' },
  });
  const put: Put = (TableName, Item) => client.send(new PutItemCommand({ TableName, Item }));
  await dropLockTables(client);
  await createTable(client, 'tf-locks', 'LockID');
  await createTable(client, 'app-locks', 'key');
  await createTable(client, 'jobs', 'key');
  await createTable(client, AUDIT_TABLE, 'lock', 'id');
  await seedTerraform(put);
  await seedLockClient(put);
  const loops = holders(client, put, stop);
  return {
    endpoint,
    sources: ['dynamodb://tf-locks', 'dynamodb://app-locks', 'dynamodb://jobs'],
    loops,
    async stop() {
      // its holders first: a request still in flight when dynalite closes its database fails ("not open")
      await Promise.race([Promise.allSettled(loops), pause(1_000)]);
      client.destroy();
      server.closeAllConnections(); // the console's keep-alive connections would hold close() open
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
