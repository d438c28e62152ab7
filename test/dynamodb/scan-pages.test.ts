// A DynamoDB lock table listed as a parallel Scan (four segments side by side) against dynalite: every item of a table
// larger than a page of each segment is listed exactly once across the pages, and a token that is not ours is a usage
// error naming the fix.
import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoLockStore } from '@/lib/lock/stores/dynamodb/store';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { SEGMENTS } from '@/lib/lock/stores/dynamodb/scan-pages';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';

let d: TestDynamo;
const ITEMS = 2_400;
// ~3 KB an item: 7 MB in all, more than one 1 MB page of each of the four segments
const purpose = 'x'.repeat(3_000);

beforeAll(async () => {
  d = await startDynamo();
  await d.table('big-locks', 'LockID');
  for (let start = 0; start < ITEMS; start += 25) {
    const puts = [];
    for (let i = start; i < start + 25; i++) {
      const info = { ID: `id-${i}`, Operation: 'OperationTypeApply', Who: `ci@runner-${i}`, Info: purpose };
      puts.push({
        PutRequest: { Item: { LockID: { S: `tf/${i}/terraform.tfstate` }, Info: { S: JSON.stringify(info) } } },
      });
    }
    await d.client.send(new BatchWriteItemCommand({ RequestItems: { 'big-locks': puts } }));
  }
}, 120_000);
afterAll(async () => d?.stop());

describe('a parallel Scan listing', () => {
  it('lists every item exactly once over several pages, one request a segment a page', async () => {
    // the store's own table counts its requests; its pages are read judged, as every caller gets them
    const raw = new DynamoLockStore({ client: d.client, table: 'big-locks' });
    const store = judgedStore(raw);
    const names: string[] = [];
    let token: string | undefined;
    let pages = 0;
    let first = 0;
    const before = raw.table.requests;
    do {
      const page = await store.list(token);
      names.push(...page.locks.map((l) => l.name));
      first ||= page.locks.length;
      token = page.nextPageToken;
      pages++;
    } while (token && pages < 100);
    expect(pages).toBeGreaterThan(1);
    // the first page holds a 1 MB page of each segment: more than one Scan page (~340 of these items) could
    expect(first).toBeGreaterThan(2 * 340);
    expect(names.length).toBe(ITEMS);
    expect(new Set(names).size).toBe(ITEMS);
    // one DescribeTable, then at most one Scan per segment per page (a finished segment is not asked again)
    expect(raw.table.requests - before).toBeLessThanOrEqual(1 + pages * SEGMENTS);
  });

  it('refuses a page token that is not one of its own, saying to list from the first page', async () => {
    const store = judgedStore(new DynamoLockStore({ client: d.client, table: 'big-locks' }));
    await expect(store.list('not-a-token')).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/first page/),
    });
  });
});
