// Delivery claims in DynamoDB (one webhook delivery per event across console replicas): an item `lock =
// .lockboard/claims`, `id = <key>` in the audit table, put only if absent (the first replica's put succeeds, every
// other one's condition fails). It has no `at`, so it is never read as an event; `claimedAt` (the service's time)
// dates it, and the claims over two days old are deleted, at most hourly (claim-keeping.ts). Claims written before
// `claimedAt` was kept carry no date and are left. As leases (claim-lease.ts) the item's `lease` attribute holds the
// lease: put only if absent, read consistently, replaced by one UpdateItem conditioned on the lease read (its text is
// its version).
import { DeleteItemCommand, GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { ClaimRecords } from '../../claim-lease';
import { ClaimPruner } from '../../claim-keeping';
import type { Item } from './table';
import { isConditionFailed, TableMissingError, type DynamoTable } from './table';

export const CLAIMS_LOCK = '.lockboard/claims';

export class DynamoClaims implements ClaimRecords {
  private readonly pruner = new ClaimPruner((cutoffMs) => this.prune(cutoffMs));

  constructor(
    private readonly table: DynamoTable,
    private readonly name: string,
  ) {}

  /** True for the one caller that created the item; `keepMs` for tests (default two days). */
  async claim(key: string, keepMs?: number, lease?: string): Promise<boolean> {
    const claimedAt = new Date(this.table.clock.now()).toISOString();
    try {
      await this.table.send(
        new PutItemCommand({
          TableName: this.name,
          Item: {
            lock: { S: CLAIMS_LOCK },
            id: { S: key },
            claimedAt: { S: claimedAt },
            ...(lease !== undefined ? { lease: { S: lease } } : {}),
          },
          ConditionExpression: 'attribute_not_exists(#id)',
          ExpressionAttributeNames: { '#id': 'id' },
        }) as never,
      );
      this.pruner.maybe(keepMs);
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw (err as { name?: string }).name === 'ResourceNotFoundException' ? new TableMissingError(this.name) : err;
    }
  }

  async create(key: string, body: string): Promise<string | null> {
    return (await this.claim(key, undefined, body)) ? body : null;
  }

  async read(key: string): Promise<{ body: string; version: string } | null> {
    const out: { Item?: Item } = await this.table.send(
      new GetItemCommand({
        TableName: this.name,
        Key: { lock: { S: CLAIMS_LOCK }, id: { S: key } },
        ConsistentRead: true,
      }) as never,
    );
    if (!out.Item) return null;
    const lease = out.Item.lease?.S ?? '';
    return { body: lease, version: lease };
  }

  async replace(key: string, body: string, version: string): Promise<string | null> {
    try {
      await this.table.send(
        new UpdateItemCommand({
          TableName: this.name,
          Key: { lock: { S: CLAIMS_LOCK }, id: { S: key } },
          UpdateExpression: 'SET #l = :new',
          // a claim of before leases has none: it is replaced only as read (empty)
          ConditionExpression: version === '' ? 'attribute_exists(#id) AND attribute_not_exists(#l)' : '#l = :old',
          ExpressionAttributeNames: { '#l': 'lease', ...(version === '' ? { '#id': 'id' } : {}) },
          ExpressionAttributeValues: { ':new': { S: body }, ...(version === '' ? {} : { ':old': { S: version } }) },
        }) as never,
      );
      return body;
    } catch (err) {
      if (isConditionFailed(err)) return null;
      throw err;
    }
  }

  /** Deletes the claims dated before `cutoffMs`, page by page, each delete re-checking the date (a new claim stays). */
  private async prune(cutoffMs: number): Promise<void> {
    const cut = { ':cut': { S: new Date(cutoffMs).toISOString() } };
    let start: Item | undefined;
    do {
      const page: { Items?: Item[]; LastEvaluatedKey?: Item } = await this.table.send(
        new QueryCommand({
          TableName: this.name,
          KeyConditionExpression: '#l = :claims',
          FilterExpression: '#c < :cut',
          ProjectionExpression: '#id',
          ExpressionAttributeNames: { '#l': 'lock', '#c': 'claimedAt', '#id': 'id' },
          ExpressionAttributeValues: { ':claims': { S: CLAIMS_LOCK }, ...cut },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }) as never,
      );
      for (const item of page.Items ?? [])
        await this.table
          .send(
            new DeleteItemCommand({
              TableName: this.name,
              Key: { lock: { S: CLAIMS_LOCK }, id: item.id! },
              ConditionExpression: '#c < :cut',
              ExpressionAttributeNames: { '#c': 'claimedAt' },
              ExpressionAttributeValues: cut,
            }) as never,
          )
          .catch((err: unknown) => {
            if (!isConditionFailed(err)) throw err;
          });
      start = page.LastEvaluatedKey;
    } while (start);
  }
}
