// DynamoDB (dynalite): listing a 10 000-item lock table (Terraform lock items and digests, lock-client leases, items of
// no lock shape) through the store, against a bare Scan of the same table in the same run; and the requests of a
// force-release (re-read, audit attempt, conditional DeleteItem, audit outcome).
import { BatchWriteItemCommand, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { DynamoLockStore } from '@/lib/lock/stores/dynamodb/store';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { startDynamo } from '../helpers/dynamodb';
import { countEveryPage, printTable, round, writeJson } from './report';

const ITEMS = 10_000;

function itemOf(i: number): Record<string, AttributeValue> {
  const S = (s: string) => ({ S: s });
  if (i % 4 === 0)
    return {
      LockID: S(`state/env-${i}/terraform.tfstate`),
      Info: S(
        JSON.stringify({
          ID: `id-${i}`,
          Operation: 'OperationTypeApply',
          Who: `ci@runner-${i % 50}`,
          Version: '1.11.4',
          Created: new Date().toISOString(),
          Path: `state/env-${i}`,
        }),
      ),
    };
  if (i % 4 === 1)
    return { LockID: S(`state/env-${i}/terraform.tfstate-md5`), Digest: S(i.toString(16).padStart(32, '0')) };
  if (i % 4 === 2)
    return {
      LockID: S(`lease-${i}`),
      ownerName: S(`host-${i % 20}`),
      leaseDuration: S('20000'),
      recordVersionNumber: S(`rvn-${i}`),
    };
  return { LockID: S(`user#${i}`), email: S(`user${i}@example.com`), plan: S('pro') };
}

export async function benchDynamodb() {
  const d = await startDynamo();
  await d.table('bench-locks', 'LockID');
  await d.table('lockboard-audit', 'lock', 'id');
  for (let i = 0; i < ITEMS; i += 25) {
    const batch = Array.from({ length: 25 }, (_, j) => ({ PutRequest: { Item: itemOf(i + j) } }));
    await d.client.send(new BatchWriteItemCommand({ RequestItems: { 'bench-locks': batch } }));
  }
  const rows = [];
  let started = performance.now();
  let scans = 0;
  let items = 0;
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await d.client.send(new ScanCommand({ TableName: 'bench-locks', ExclusiveStartKey: start }));
    scans++;
    items += page.Items?.length ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  rows.push({
    listing: 'bare Scan (baseline)',
    items,
    locks: '-',
    requests: scans,
    ms: round(performance.now() - started),
    ratio: 1,
  });
  const bare = performance.now() - started;
  // the store's own table counts its requests; it is used judged, as every caller gets it
  const raw = new DynamoLockStore({ client: d.client, table: 'bench-locks' });
  const store = judgedStore(raw);
  started = performance.now();
  const { locks, skipped } = await countEveryPage(store);
  const ms = performance.now() - started;
  rows.push({
    listing: `DynamoLockStore.list (skipped ${skipped})`,
    items: locks + skipped,
    locks,
    requests: raw.table.requests,
    ms: round(ms),
    ratio: round(ms / bare, 2),
  });
  printTable(`Listing a ${ITEMS}-item DynamoDB lock table (dynalite; Scan pages of 1 MB)`, rows);

  const lock = (await store.inspect('state/env-0/terraform.tfstate'))!;
  const before = raw.table.requests;
  const result = await store.forceRelease({
    name: lock.name,
    version: lock.version,
    reason: 'bench',
    operator: 'bench',
  });
  const releaseRows = [
    {
      operation: `force-release (${result.outcome})`,
      requests: raw.table.requests - before,
      detail: 'GetItem; audit PutItem; DeleteItem with the condition; audit PutItem',
    },
  ];
  printTable('DynamoDB requests per force-release', releaseRows);
  writeJson('dynamodb', { items: ITEMS, listing: rows, forceRelease: releaseRows });
  await d.stop();
}
