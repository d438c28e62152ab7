// One DynamoDB table through the official client: its key schema read once (DescribeTable), Scan pages of 1 MB (of
// one segment of a parallel Scan), consistent reads, conditional writes, and the service's clock from each response's
// Date header.
import {
  ConditionalCheckFailedException,
  DeleteItemCommand,
  DescribeTableCommand,
  GetItemCommand,
  PutItemCommand,
  ScanCommand,
  UpdateItemCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { DateHeaderClock } from '../../support/date-clock';

export type Item = Record<string, AttributeValue>;

/** A condition on what was read: the expression and its names and values. */
export interface Condition {
  expression: string;
  names: Record<string, string>;
  values?: Record<string, AttributeValue>;
}

export interface KeySchema {
  hash: string;
  /** The sort key, when the table has one (python-dynamodb-lock's `sort_key`). */
  range?: string;
}

export const isConditionFailed = (err: unknown): boolean =>
  err instanceof ConditionalCheckFailedException ||
  (err as { name?: string })?.name === 'ConditionalCheckFailedException';

export class DynamoTable {
  readonly clock: DateHeaderClock;
  requests = 0;
  private schema: Promise<KeySchema> | undefined;

  constructor(
    readonly client: DynamoDBClient,
    readonly name: string,
  ) {
    this.clock = DateHeaderClock.of(client);
  }

  send<T>(command: { middlewareStack: never }): Promise<T> {
    this.requests++;
    return this.clock.send<T>(this.client as never, command as never);
  }

  /** The key schema, read once; a missing table is a TableMissingError naming it and the fix. */
  keys(): Promise<KeySchema> {
    this.schema ??= this.send<{ Table?: { KeySchema?: { AttributeName?: string; KeyType?: string }[] } }>(
      new DescribeTableCommand({ TableName: this.name }) as never,
    ).then(
      (out) => {
        const ks = out.Table?.KeySchema ?? [];
        const hash = ks.find((k) => k.KeyType === 'HASH')?.AttributeName;
        if (!hash) throw new Error(`Table ${this.name} has no hash key`);
        const range = ks.find((k) => k.KeyType === 'RANGE')?.AttributeName;
        return range ? { hash, range } : { hash };
      },
      (err: unknown) => {
        this.schema = undefined;
        throw (err as { name?: string }).name === 'ResourceNotFoundException' ? new TableMissingError(this.name) : err;
      },
    );
    return this.schema;
  }

  /** The key of the item named `name` (a sort key, when there is one, is "-" as python-dynamodb-lock writes it). */
  async keyOf(name: string): Promise<Item> {
    const k = await this.keys();
    return { [k.hash]: { S: name }, ...(k.range ? { [k.range]: { S: '-' } } : {}) };
  }

  /** One Scan page (1 MB) of segment `segment` of `total` (a parallel Scan; one segment is the whole table). */
  async scan(token?: Item, segment = 0, total = 1): Promise<{ items: Item[]; next?: Item }> {
    const out = await this.send<{ Items?: Item[]; LastEvaluatedKey?: Item }>(
      new ScanCommand({
        TableName: this.name,
        ...(total > 1 ? { Segment: segment, TotalSegments: total } : {}),
        ...(token ? { ExclusiveStartKey: token } : {}),
      }) as never,
    );
    return { items: out.Items ?? [], ...(out.LastEvaluatedKey ? { next: out.LastEvaluatedKey } : {}) };
  }

  async get(name: string): Promise<Item | null> {
    const out = await this.send<{ Item?: Item }>(
      new GetItemCommand({ TableName: this.name, Key: await this.keyOf(name), ConsistentRead: true }) as never,
    );
    return out.Item ?? null;
  }

  /** DeleteItem conditioned on what was read: false when the condition failed (nothing deleted). */
  async deleteIf(name: string, c: Condition): Promise<boolean> {
    return this.conditional(
      new DeleteItemCommand({ TableName: this.name, Key: await this.keyOf(name), ...expression(c) }) as never,
    );
  }

  async putIf(item: Item, c: Condition): Promise<boolean> {
    return this.conditional(new PutItemCommand({ TableName: this.name, Item: item, ...expression(c) }) as never);
  }

  async updateIf(name: string, update: string, c: Condition): Promise<boolean> {
    return this.conditional(
      new UpdateItemCommand({
        TableName: this.name,
        Key: await this.keyOf(name),
        UpdateExpression: update,
        ...expression(c),
      }) as never,
    );
  }

  /** An atomic counter: ADD 1 to `attr` of the item named `name`; the new value. */
  async increment(name: string, attr: string): Promise<bigint> {
    const out = await this.send<{ Attributes?: Item }>(
      new UpdateItemCommand({
        TableName: this.name,
        Key: await this.keyOf(name),
        UpdateExpression: 'ADD #c :one',
        ExpressionAttributeNames: { '#c': attr },
        ExpressionAttributeValues: { ':one': { N: '1' } },
        ReturnValues: 'UPDATED_NEW',
      }) as never,
    );
    return BigInt(out.Attributes?.[attr]?.N ?? '0');
  }

  private async conditional(command: { middlewareStack: never }): Promise<boolean> {
    try {
      await this.send(command);
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }
}

function expression(c: Condition) {
  return {
    ConditionExpression: c.expression,
    ExpressionAttributeNames: c.names,
    ...(c.values && Object.keys(c.values).length ? { ExpressionAttributeValues: c.values } : {}),
  };
}

/** The table does not exist: a configuration error (CLI 3, API 503) naming it and how to create it. */
export class TableMissingError extends Error {
  readonly code = 'TABLE_MISSING';
  constructor(readonly table: string) {
    super(
      `DynamoDB table "${table}" does not exist (or this role may not DescribeTable it): create it, or run ` +
        '`lockboard dynamodb init` for the tables Lockboard needs.',
    );
    this.name = 'TableMissingError';
  }
}
