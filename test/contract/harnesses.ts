// One harness per store for the contract suite: a real server (the emulator's GCS and S3, redis-server, PostgreSQL),
// the source URL and environment Lockboard reads, and the store's own way to leave a lock, replace it with a
// successor's, and leave something that is not a lock.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { startEmulator } from '@/lib/emulator';
import { Storage } from '@google-cloud/storage';
import type { LockStore } from '@/lib/lock/store';
import { DynamoLockStore } from '@/lib/lock/stores/dynamodb';
import { GcsLockStore } from '@/lib/lock/stores/gcs';
import { PostgresLockStore } from '@/lib/lock/stores/postgres';
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { S3LockStore } from '@/lib/lock/stores/s3';
import { startDynamo } from '../helpers/dynamodb';
import { startPostgres } from '../helpers/postgres';
import { startRedis } from '../helpers/redis';
import { startS3 } from '../helpers/s3';
import { postgresSeedHarness } from './harness-postgres-seed';
import { filesHarness } from './harness-files';
import { kubernetesHarness } from './harness-kubernetes';
import { zookeeperHarness } from './harness-zookeeper';
import { etcdHarness } from './harness-etcd';
import { mysqlHarness } from './harness-mysql';
import { azureHarness } from './harness-azure';

export interface Harness {
  kind: string;
  source: string;
  env: Record<string, string>;
  /** The name of a lock held by alice (and, after `successor`, by bob). */
  lock: string;
  /** The name of something under the source that is not a lock. */
  notALock: string;
  hold(): Promise<void>;
  successor(): Promise<void>;
  stop(): Promise<void>;
  /** The store's own release history for the lock, where the lock's tool keeps one (the seed's `released`). */
  history?(): Promise<string[]>;
  /** Where the store queues contenders (contract rule 7): a holder and waiters written by the store's own tools. */
  queue?: QueueHarness;
  /** The store lists this source metadata first: a first listing hands the lock over later (`ListOptions.later`). */
  readsLater?: boolean;
  /** The source's store built directly, by the class its subpath exports (`new S3LockStore(…)`), where it is simple. */
  direct?(): LockStore;
}

/** A lock with a holder and at least two waiters, for contract rule 7 (waiters in grant order, never released). */
export interface QueueHarness {
  /** The lock's name under the source. */
  name: string;
  /** Starts the holder, then the waiters one after another; resolves when all are queued. */
  start(): Promise<void>;
  /** The waiters' identities in the order they queued (the order the store grants them). */
  order: string[];
  /** Resolves with the identity that holds the lock now (after the holder's release: the first waiter). */
  holder(): Promise<string>;
  /** Stops every contender it started. */
  stop(): Promise<void>;
}

const tflock = (who: string) =>
  JSON.stringify({
    ID: randomBytes(8).toString('hex'),
    Operation: 'OperationTypeApply',
    Who: who,
    Version: '1.11.4',
    Created: new Date().toISOString(),
    Path: 'prod/default.tfstate',
    Info: '',
  });

export async function gcsHarness(): Promise<Harness> {
  const emulator = await startEmulator({ buckets: ['contract'] });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'contract' });
  const put = (name: string, body: string) =>
    storage
      .bucket('contract')
      .file(name)
      .save(body, { resumable: false, preconditionOpts: { ifGenerationMatch: 0 } });
  const replace = async (name: string, body: string) => {
    await storage.bucket('contract').file(name).delete();
    await put(name, body);
  };
  return {
    kind: 'gcs',
    readsLater: true,
    source: 'gs://contract/locks/',
    env: { LOCKBOARD_GCS_ENDPOINT: emulator.url },
    lock: 'locks/prod/default.tflock',
    notALock: 'locks/prod/default.tfstate',
    async hold() {
      await put('locks/prod/default.tflock', tflock('alice@laptop'));
      await put('locks/prod/default.tfstate', JSON.stringify({ version: 4, resources: [] }));
    },
    successor: () => replace('locks/prod/default.tflock', tflock('bob@ci')),
    stop: () => emulator.close(),
    direct: () => new GcsLockStore({ storage, bucket: 'contract', prefix: 'locks/' }),
  };
}

export async function s3Harness(): Promise<Harness> {
  const s3 = await startS3(['contract']);
  const put = (Key: string, Body: string) => s3.client.send(new PutObjectCommand({ Bucket: 'contract', Key, Body }));
  return {
    kind: 's3',
    readsLater: true,
    source: 's3://contract/locks/',
    env: { AWS_ENDPOINT_URL_S3: s3.url, AWS_REGION: 'us-east-1' },
    lock: 'locks/prod/terraform.tfstate.tflock',
    notALock: 'locks/prod/terraform.tfstate',
    async hold() {
      await put('locks/prod/terraform.tfstate.tflock', tflock('alice@laptop'));
      await put('locks/prod/terraform.tfstate', JSON.stringify({ version: 4, resources: [] }));
    },
    successor: () => put('locks/prod/terraform.tfstate.tflock', tflock('bob@ci')).then(() => undefined),
    stop: () => s3.close(),
    direct: () => new S3LockStore({ client: s3.client, bucket: 'contract', prefix: 'locks/' }),
  };
}

export async function redisHarness(): Promise<Harness> {
  const redis = await startRedis();
  const hex = () => randomBytes(16).toString('hex');
  return {
    kind: 'redis',
    source: `${redis.url}/0`,
    env: {},
    lock: 'locks:nightly',
    notALock: 'cache:user:1',
    async hold() {
      await redis.client.set('locks:nightly', hex(), { PX: 600_000 });
      await redis.client.set('cache:user:1', JSON.stringify({ name: 'Ada', plan: 'pro' }));
    },
    successor: () => redis.client.set('locks:nightly', hex(), { PX: 600_000 }).then(() => undefined),
    stop: () => redis.stop(),
    direct: () => new RedisLockStore({ client: redis.client, source: `${redis.url}/0` }),
  };
}

export async function postgresHarness(): Promise<Harness> {
  const pg = await startPostgres();
  const db = pg.admin;
  await db.query(`CREATE TABLE shedlock (name varchar(64) PRIMARY KEY, lock_until timestamp NOT NULL,
    locked_at timestamp NOT NULL, locked_by varchar(255) NOT NULL)`);
  await db.query('CREATE TABLE users (id int PRIMARY KEY, email text)');
  const take = (who: string) =>
    db.query(
      `INSERT INTO shedlock VALUES ('nightly-report', timezone('utc', now()) + interval '10 minutes', timezone('utc', now()), $1)
       ON CONFLICT (name) DO UPDATE SET locked_by = $1, locked_at = timezone('utc', now()) + interval '1 millisecond'`,
      [who],
    );
  return {
    kind: 'postgres',
    source: pg.url,
    env: {},
    lock: 'public.shedlock/nightly-report',
    notALock: 'public.users/1',
    async hold() {
      await take('alice-host');
      await db.query(`INSERT INTO users VALUES (1, 'ada@example.com') ON CONFLICT DO NOTHING`);
    },
    successor: () => take('bob-host').then(() => undefined),
    stop: () => pg.stop(),
    direct: () => new PostgresLockStore({ client: db, source: pg.url }),
  };
}

export async function dynamodbHarness(): Promise<Harness> {
  const d = await startDynamo();
  await d.table('contract-locks', 'LockID');
  await d.table('lockboard-audit', 'lock', 'id');
  const lock = 'tf-state/prod/terraform.tfstate';
  return {
    kind: 'dynamodb',
    source: 'dynamodb://contract-locks',
    env: { AWS_ENDPOINT_URL_DYNAMODB: d.url, AWS_REGION: 'us-east-1' },
    lock,
    notALock: `${lock}-md5`,
    async hold() {
      await d.put('contract-locks', { LockID: { S: lock }, Info: { S: tflock('alice@laptop') } });
      await d.put('contract-locks', {
        LockID: { S: `${lock}-md5` },
        Digest: { S: '0f343b0931126a20f133d67c2b018a3b' },
      });
    },
    successor: () => d.put('contract-locks', { LockID: { S: lock }, Info: { S: tflock('bob@ci') } }),
    stop: () => d.stop(),
    direct: () => new DynamoLockStore({ client: d.client, table: 'contract-locks' }),
  };
}

export const HARNESSES: [string, () => Promise<Harness>][] = [
  ['gcs', gcsHarness],
  ['s3', s3Harness],
  ['redis', redisHarness],
  ['postgres', postgresHarness],
  ["postgres (the seed's tables)", postgresSeedHarness],
  ['dynamodb', dynamodbHarness],
  // One line per store below; each store's harness lives in its own file (harness-<store>.ts).
  ['files', filesHarness],
  ['kubernetes', kubernetesHarness],
  ['zookeeper', zookeeperHarness],
  ['etcd', etcdHarness],
  ['mysql', mysqlHarness],
  ['azure', azureHarness],
];
