// DynamoDB in the registry: dynamodb://TABLE (?audit=TABLE for the audit table, default lockboard-audit), the AWS
// SDK loaded when a source is opened, with its own variables (AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB for a local
// server such as dynalite). The table's key schema is read once with DescribeTable.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { holdOn, isLoopback, missingSdk, runOptions, type OpenOptions, type StoreDefinition } from '../types';
import { judgeAwsError } from '../aws/unavailable';
import { auditOf, DEFAULT_AUDIT_TABLE, parseDynamoSource, tableOf } from './source';
import { DYNAMODB_VERSION } from './version';
import { dynamoDiscovery } from './discover';
import { dynamodbFormats } from './lock-formats';

async function dynamoClient(env: OpenOptions['env']): Promise<DynamoDBClient> {
  let sdk: typeof import('@aws-sdk/client-dynamodb');
  try {
    sdk = await import('@aws-sdk/client-dynamodb');
  } catch {
    throw missingSdk('dynamodb:// sources', '@aws-sdk/client-dynamodb');
  }
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB ?? env.AWS_ENDPOINT_URL;
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? (endpoint ? 'us-east-1' : undefined);
  if (!region)
    throw Object.assign(new Error('No AWS region: set AWS_REGION (e.g. AWS_REGION=eu-west-1).'), { code: 'CONFIG' });
  return new sdk.DynamoDBClient({
    region,
    maxAttempts: 2,
    ...(endpoint ? { endpoint } : {}),
    ...(endpoint && !env.AWS_ACCESS_KEY_ID
      ? { credentials: { accessKeyId: 'lockboard', secretAccessKey: 'lockboard' } }
      : {}),
  });
}

export const dynamodb: StoreDefinition = {
  kind: 'dynamodb',
  formats: dynamodbFormats,
  label: 'DynamoDB',
  versionShape: DYNAMODB_VERSION,
  judgeError: judgeAwsError,
  watchIntervalMs: 3_000,
  schemes: ['dynamodb'],
  form: 'dynamodb://TABLE',
  parse: parseDynamoSource,
  discover: dynamoDiscovery(dynamoClient),
  hold: async () => (await import('./hold')).dynamoHolds(dynamoClient),
  configIssues(env, o) {
    const issues = [];
    if (o.demo && !isLoopback(env.AWS_ENDPOINT_URL_DYNAMODB))
      issues.push({
        variable: 'LOCKBOARD_DEMO',
        message:
          'demo mode only runs against a local server (AWS_ENDPOINT_URL_DYNAMODB on 127.0.0.1 or localhost for dynamodb:// sources), never real DynamoDB',
      });
    if (!env.AWS_ENDPOINT_URL_DYNAMODB && !env.AWS_REGION && !env.AWS_DEFAULT_REGION)
      issues.push({
        variable: 'AWS_REGION',
        message: 'is required for dynamodb:// sources (the region of the tables, e.g. AWS_REGION=eu-west-1)',
      });
    return issues;
  },
  async open(spec, o) {
    const [{ DynamoLockStore }, { speakUnreachable }, sdk] = await Promise.all([
      import('./store'),
      import('./unreachable'),
      dynamoClient(o.env),
    ]);
    const client = speakUnreachable(sdk, spec.id, o.env.AWS_ENDPOINT_URL_DYNAMODB ?? o.env.AWS_ENDPOINT_URL);
    return new DynamoLockStore({
      client,
      table: tableOf(spec.url),
      auditTable: auditOf(spec.url),
      longHeldMs: o.longHeldMs,
      close: async () => client.destroy(),
    });
  },
  async init(spec, o) {
    const [{ createTable }, client] = await Promise.all([import('./audit'), dynamoClient(o.env)]);
    try {
      const audit = spec ? (auditOf(spec.url) ?? DEFAULT_AUDIT_TABLE) : DEFAULT_AUDIT_TABLE;
      const made = [(await createTable(client, audit, 'lock', 'id')) ? `created ${audit}` : `${audit} exists`];
      if (spec) {
        const table = tableOf(spec.url);
        made.push((await createTable(client, table, 'key')) ? `created ${table}` : `${table} exists`);
      }
      return `Lockboard's DynamoDB tables are ready: ${made.join(', ')}.`;
    } finally {
      client.destroy();
    }
  },
  async acquire(spec, name, o) {
    const [{ acquireDynamoLock }, { DynamoLockStore }, client] = await Promise.all([
      import('./acquire'),
      import('./store'),
      dynamoClient(o.env),
    ]);
    const table = tableOf(spec.url);
    const trail = new DynamoLockStore({ client, table, auditTable: auditOf(spec.url) });
    return holdOn({
      name: `${spec.id} ${name}`,
      close: () => client.destroy(),
      acquire: () => acquireDynamoLock({ client, table, name, audit: { table: auditOf(spec.url) }, ...runOptions(o) }),
      async release(lock, details) {
        const outcome = await lock.release();
        await trail
          .record({ event: 'released', lock: name, generation: lock.fencingToken, ...details })
          .catch(() => '');
        return outcome;
      },
    });
  },
};
