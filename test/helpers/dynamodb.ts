// dynalite (npm: a DynamoDB implementation on LevelDB, not ours) started in-process on a free port, through the
// official AWS SDK client. No transactions and no UpdateTimeToLive: the store needs neither.
import { DynamoDBClient, PutItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import type { AddressInfo } from 'node:net';
import { createTable } from '@/lib/lock/stores/dynamodb';

export interface TestDynamo {
  url: string;
  client: DynamoDBClient;
  /** A lock table with this hash key (Terraform: LockID; the lock clients: key). */
  table(name: string, hash?: string, range?: string): Promise<void>;
  put(table: string, item: Record<string, AttributeValue>): Promise<void>;
  stop(): Promise<void>;
}

export async function startDynamo(): Promise<TestDynamo> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: url,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
  return {
    url,
    client,
    table: async (name, hash = 'LockID', range) => void (await createTable(client, name, hash, range)),
    put: async (table, item) => void (await client.send(new PutItemCommand({ TableName: table, Item: item }))),
    async stop() {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
