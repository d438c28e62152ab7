// The DynamoDB audit trail: one item per event in a table of its own (default `lockboard-audit`, hash key `lock`,
// sort key `id` = service time + random), created by `lockboard dynamodb init`. Written before and after each
// release; a missing table refuses the release (nothing is deleted unaudited).
import { randomBytes } from 'node:crypto';
import { CreateTableCommand, PutItemCommand, ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AUDIT_STRING_FIELDS, type AuditRecord } from '../../audit/record';
import { signAuditFields } from '../../audit/trust';
import type { Item } from './table';
import { TableMissingError, type DynamoTable } from './table';

export class DynamoAuditTrail {
  constructor(
    private readonly table: DynamoTable,
    readonly name: string,
  ) {}

  async record(fields: Record<string, string>): Promise<string> {
    const at = new Date(this.table.clock.now()).toISOString();
    const id = `${at}#${randomBytes(4).toString('hex')}`;
    // The lock table, since several may share this audit table: each event is read as one source's, once
    const container = `dynamodb://${this.table.name}`;
    const item: Item = { lock: { S: fields.lock ?? '' }, id: { S: id }, at: { S: at }, container: { S: container } };
    for (const [k, v] of Object.entries(signAuditFields(fields, this.table.clock.now())))
      if (k !== 'lock' && v !== undefined) item[k] = { S: v };
    try {
      await this.table.send(
        new PutItemCommand({
          TableName: this.name,
          Item: item,
          ConditionExpression: 'attribute_not_exists(#id)',
          ExpressionAttributeNames: { '#id': 'id' },
        }) as never,
      );
    } catch (err) {
      throw (err as { name?: string }).name === 'ResourceNotFoundException' ? new TableMissingError(this.name) : err;
    }
    return `${this.name}#${id}`;
  }

  /** Events of [from, to): Scan pages filtered on the time (and the lock). */
  async read(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    const out: AuditRecord[] = [];
    let start: Item | undefined;
    do {
      const page: { Items?: Item[]; LastEvaluatedKey?: Item } = await this.table
        .send<{ Items?: Item[]; LastEvaluatedKey?: Item }>(
          new ScanCommand({
            TableName: this.name,
            FilterExpression: `#at >= :from AND #at < :to${lock ? ' AND #l = :l' : ''}`,
            ExpressionAttributeNames: { '#at': 'at', ...(lock ? { '#l': 'lock' } : {}) },
            ExpressionAttributeValues: {
              ':from': { S: from.toISOString() },
              ':to': { S: to.toISOString() },
              ...(lock ? { ':l': { S: lock } } : {}),
            },
            ...(start ? { ExclusiveStartKey: start } : {}),
          }) as never,
        )
        .catch((err: { name?: string }) => {
          if (err.name === 'ResourceNotFoundException') return {}; // no trail yet: no events
          throw err;
        });
      for (const i of page.Items ?? []) {
        // DynamoDB keeps no time of its own for an item: the writer's, shown as reported (or signed, when verified)
        const record = {
          id: i.id?.S ?? '',
          at: i.at?.S ?? '',
          at_from: 'reported',
          event: i.event?.S ?? '',
          lock: i.lock?.S ?? '',
        } as AuditRecord;
        for (const k of AUDIT_STRING_FIELDS) if (i[k]?.S) record[k] = i[k].S;
        out.push(record);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  }
}

/** Creates a table (on-demand) if it does not exist; false when it already did. */
export async function createTable(
  client: DynamoDBClient,
  name: string,
  hash: string,
  range?: string,
): Promise<boolean> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: hash, AttributeType: 'S' },
          ...(range ? [{ AttributeName: range, AttributeType: 'S' as const }] : []),
        ],
        KeySchema: [
          { AttributeName: hash, KeyType: 'HASH' },
          ...(range ? [{ AttributeName: range, KeyType: 'RANGE' as const }] : []),
        ],
      }),
    );
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === 'ResourceInUseException') return false;
    throw err;
  }
}
