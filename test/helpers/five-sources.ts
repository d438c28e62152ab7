// Five real sources behind one console, for the fault-isolation browser test: GCS on one emulator (the one stopped
// last), S3 on a second emulator (the witness that stays up), Redis, PostgreSQL and DynamoDB (dynalite). Each holds
// locks its own tools write: Lockboard's GCS locks (one refreshing, two whose holder froze), Terraform's S3 and
// DynamoDB locks, a Redis SET … PX lock and a PostgreSQL advisory lock held by a session.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import type pg from 'pg';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { acquireLock, type Lock } from '@/lib/lock';
import { startBrowserConsole, type BrowserConsole } from './console-browser';
import { startDynamo, type TestDynamo } from './dynamodb';
import { freezeHolder } from './lock';
import { startPostgres, type TestPostgres } from './postgres';
import { startRedis, type TestRedis } from './redis';
import { delay } from './requests';
import { s3ClientFor } from './s3';

export const ADVISORY = 'advisory:72707369';
export const TFLOCK = 'envs/prod/terraform.tfstate.tflock';

export interface FiveSources {
  gcs: Emulator;
  s3: Emulator;
  redis: TestRedis;
  pg: TestPostgres;
  dynamo: TestDynamo;
  console: BrowserConsole;
  /** The sources as the console shows them (without a user or password). */
  ids: { gcs: string; s3: string; redis: string; pg: string; dynamo: string };
  /** Lockboard's GCS locks held by this process (frozen before their emulator stops). */
  gcsHeld: Lock[];
  /** Writes a Terraform lock into the S3 source (the witness: its server is never stopped). */
  putS3(key: string, who: string): Promise<void>;
  close(): Promise<void>;
}

const tflock = (who: string) => JSON.stringify({ ID: `id-${who}`, Operation: 'OperationTypeApply', Who: who });

export async function startFiveSources(): Promise<FiveSources> {
  const [gcs, s3, redis, pgServer, dynamo] = await Promise.all([
    startEmulator({ buckets: ['ci-locks'] }),
    startEmulator({ s3: { buckets: ['state'] } }),
    startRedis(),
    startPostgres(),
    startDynamo(),
  ]);
  const held: Lock[] = [];
  let advisory: pg.Client | undefined;
  const s3client = s3ClientFor(s3.s3!.url);
  const putS3 = async (key: string, who: string) =>
    void (await s3client.send(new PutObjectCommand({ Bucket: 'state', Key: key, Body: tflock(who) })));
  try {
    const storage = new Storage({ apiEndpoint: gcs.url, projectId: 'test' });
    const base = { storage, bucket: 'ci-locks' };
    held.push(
      await acquireLock({ ...base, name: 'locks/web', identity: 'web-1', ttlMs: 60_000, refreshIntervalMs: 5_000 }),
    );
    for (const n of [1, 2]) {
      const l = await acquireLock({ ...base, name: `locks/stale-${n}`, identity: `dead-${n}`, ttlMs: 1000 });
      freezeHolder(l);
    }
    await putS3(TFLOCK, 'ann@laptop');
    await redis.client.sendCommand(['SET', 'locks:nightly', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'PX', '600000']);
    await dynamo.table('tf-locks', 'LockID');
    await dynamo.table('lockboard-audit', 'lock', 'id');
    await dynamo.put('tf-locks', { LockID: { S: 'state/prod' }, Info: { S: tflock('bob@ci') } });
    advisory = await pgServer.connect({ application_name: 'prisma-migrate' });
    await advisory.query(`SELECT pg_advisory_lock(${ADVISORY.split(':')[1]})`);
    await delay(1200); // the frozen holders' TTL runs out
    const ids = {
      gcs: 'gs://ci-locks/locks/',
      s3: 's3://state/envs/',
      redis: `redis://127.0.0.1:${redis.port}/0`,
      pg: `postgres://127.0.0.1:${pgServer.port}/postgres`, // as shown: configured with its user
      dynamo: 'dynamodb://tf-locks',
    };
    const console = await startBrowserConsole({
      LOCKBOARD_SOURCES: Object.values({ ...ids, pg: pgServer.url }).join(','),
      LOCKBOARD_GCS_ENDPOINT: gcs.url,
      AWS_ENDPOINT_URL_S3: s3.s3!.url,
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_REGION: 'us-east-1',
    });
    return {
      gcs,
      s3,
      redis,
      pg: pgServer,
      dynamo,
      console,
      ids,
      gcsHeld: held,
      putS3,
      async close() {
        await Promise.allSettled(held.map((l) => l.release()));
        await console.close();
        await advisory?.end().catch(() => undefined);
        // each server is stopped once: a second stop of one the test already stopped is harmless
        await Promise.allSettled([redis.stop(), pgServer.stop(), dynamo.stop(), gcs.close(), s3.close()]);
      },
    };
  } catch (err) {
    await advisory?.end().catch(() => undefined);
    await Promise.allSettled([redis.stop(), pgServer.stop(), dynamo.stop(), gcs.close(), s3.close()]);
    throw err;
  }
}
