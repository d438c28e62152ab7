// The demo's parts started in order, once its ports are known to be free (index.ts loads this file only then: the
// store SDKs take seconds to load on a busy machine, and a taken port or --help needs none of them). Each part adds
// its stop to the demo's Shutdown as it starts, so a failure at any point stops what had started.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { startEmulator, type Emulator } from '../emulator';
import { consoleSteady } from './answers';
import { demoAuditKey } from './audit-key';
import { banner } from './banner';
import { freshLog, startConsole, type ConsoleProcess } from './console';
import { startHolders, type Holders } from './holders';
import { bucketSources, DEMO_BUCKET as BUCKET, GCS_BUCKETS } from './buckets';
import { startDemoServers, type DemoServers } from './servers';
import type { DemoOptions } from './options';
import type { Shutdown } from './shutdown';

/** The demo emulator's pushes to the demo console (a shared token, as with any emulator). */
const PUSH_TOKEN = randomBytes(16).toString('hex');

/** The GCS and S3 emulator with the demo's buckets, its GCS notifications pushed to the console. */
async function startStorage(o: DemoOptions, life: Shutdown): Promise<Emulator | null> {
  const { port, 'emulator-port': emulatorPort, 's3-port': s3Port } = o.ports;
  let emulator;
  try {
    emulator = await startEmulator({
      port: emulatorPort,
      buckets: GCS_BUCKETS,
      dataDir: o.dataDir,
      faults: { rateLimit: { enabled: true } },
      s3: { port: s3Port },
      // GCS notifications to the console (retried until the console is up): churn of every format, hand deletions
      push: { endpoint: `http://127.0.0.1:${port}/api/gcs-events`, token: PUSH_TOKEN },
    });
  } catch (err) {
    console.error(
      `demo: cannot start the emulator on ports ${emulatorPort} and ${s3Port}: ${(err as Error).message}. Try --emulator-port / --s3-port.`,
    );
    return null;
  }
  life.add('the emulator', () => emulator.close(), { phase: 2 });
  return emulator;
}

/** Seeds both buckets with notifications to the console, then starts the GCS and S3 holders. */
async function startBucketHolders(emulator: Emulator, life: Shutdown): Promise<Holders> {
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'demo' });
  for (const b of GCS_BUCKETS) {
    const [existing] = await storage.bucket(b).getNotifications();
    if (existing.length === 0) {
      await storage.bucket(b).createNotification('projects/demo/topics/lockboard-gcs', {
        eventTypes: ['OBJECT_FINALIZE', 'OBJECT_DELETE'],
        payloadFormat: 'JSON_API_V1',
      });
    }
  }
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: emulator.s3!.url,
    forcePathStyle: true,
    credentials: { accessKeyId: 'demo', secretAccessKey: 'demo' },
  });
  const holders = await startHolders(storage, BUCKET, { s3 });
  life.add('the GCS and S3 holders', () => holders.stop());
  return holders;
}

/** Redis, PostgreSQL, DynamoDB, lock files, Kubernetes, ZooKeeper and etcd, each where it can start. */
async function startServers(o: DemoOptions, life: Shutdown): Promise<DemoServers> {
  const p = o.ports;
  const servers = await startDemoServers(o.dataDir, {
    redisPort: p['redis-port'],
    pgPort: p['pg-port'],
    mysqlPort: p['mysql-port'],
    dynamoPort: p['dynamodb-port'],
    kubePort: p['kube-port'],
    zkPort: p['zookeeper-port'],
    etcdPort: p['etcd-port'],
  });
  life.add('the servers', () => servers.stop(), { kill: () => servers.kill() });
  return servers;
}

/** The console on every source the demo configured; its output in a log file, its problems printed here. */
async function startDemoConsole(
  o: DemoOptions,
  emulator: Emulator,
  servers: DemoServers,
  life: Shutdown,
  auditKey: string,
) {
  const consoleLog = join(o.dataDir, 'console.log');
  freshLog(consoleLog); // this run's output only; the last run's is console.log.1
  const sources = bucketSources();
  const console_ = await startConsole(
    o.ports.port,
    {
      LOCKBOARD_DEMO: '1',
      LOCKBOARD_SOURCES: [...sources, ...servers.sources].join(','),
      ...servers.env,
      LOCKBOARD_GCS_ENDPOINT: emulator.url,
      AWS_ENDPOINT_URL_S3: emulator.s3!.url,
      LOCKBOARD_LONG_HELD: '10m',
      LOCKBOARD_METRICS_TOKEN: 'demo-metrics-token-0123456789',
      LOCKBOARD_PUSH_TOKEN: PUSH_TOKEN,
      NEXTAUTH_SECRET: randomBytes(32).toString('base64'),
      // the data directory's key: releases signed on an earlier run stay verified (lib/demo/audit-key.ts)
      LOCKBOARD_AUDIT_KEY: auditKey,
    },
    '127.0.0.1',
    { file: consoleLog, onProblem: (line) => console.error(`[console] ${line}`) },
  );
  life.add('the console', () => console_.stop(), { phase: 0 });
  // the banner promises a console that answers: one that answered once may still be opening its stores
  if (!(await consoleSteady(console_.url)))
    console.error(`demo: the console at ${console_.url} is slow to answer (a busy machine?); starting anyway`);
  return { console_, consoleLog };
}

/**
 * Starts every part and prints the banner; returns the console (whose exit also stops the demo), or the exit code
 * when a part the demo cannot run without failed.
 */
export async function startDemo(o: DemoOptions, life: Shutdown): Promise<ConsoleProcess | number> {
  const emulator = await startStorage(o, life);
  if (!emulator) return 1;
  await startBucketHolders(emulator, life);
  const servers = await startServers(o, life);
  const auditKey = demoAuditKey(o.dataDir);
  let started;
  try {
    started = await startDemoConsole(o, emulator, servers, life, auditKey);
  } catch (err) {
    console.error(`demo: ${(err as Error).message}`);
    return life.stop(1);
  }
  console.log(banner({ ...started, emulator, servers, dataDir: o.dataDir, bucket: BUCKET, auditKey }));
  return started.console_;
}
