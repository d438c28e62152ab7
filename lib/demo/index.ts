// npm run demo: the embedded emulator (persisted, write-rate limit on), simulated holders, and the console.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { S3Client } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { startEmulator } from '../emulator';
import { buildConsole, needsBuild, startConsole } from './console';
import { startHolders } from './holders';
import { PLATFORM_BUCKET } from './platform';
import { takenPort } from './ports';
import { shutdown, stopRequested } from './shutdown';
import { S3_BUCKET } from './s3';
import { startDemoServers } from './servers';

/** The demo emulator's pushes to the demo console (a shared token, as with any emulator). */
const PUSH_TOKEN = randomBytes(16).toString('hex');
/** The demo's audit signing key: the console's releases are signed with it (give it to the CLI to sign its own). */
const AUDIT_KEY = randomBytes(32).toString('base64url');

const HELP = `Usage: npm run demo -- [--port 3000] [--emulator-port 4443] [--s3-port 4444] [--redis-port 6390] [--pg-port 5439] [--mysql-port 3316] [--dynamodb-port 4445] [--kube-port 6443] [--zookeeper-port 2191] [--etcd-port 2389] [--data-dir .data/demo]

Starts the GCS and S3 emulator, a Redis, a PostgreSQL, a ZooKeeper and an etcd of its own (when they are installed), simulated lock holders
and the Lockboard console. Ctrl-C stops everything.`;

async function main(): Promise<number> {
  const stopping = stopRequested();
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '3000' },
        'emulator-port': { type: 'string', default: '4443' },
        's3-port': { type: 'string', default: '4444' },
        'redis-port': { type: 'string', default: '6390' },
        'kube-port': { type: 'string', default: '6443' },
        'pg-port': { type: 'string', default: '5439' },
        'mysql-port': { type: 'string', default: '3316' },
        'dynamodb-port': { type: 'string', default: '4445' },
        'zookeeper-port': { type: 'string', default: '2191' },
        'etcd-port': { type: 'string', default: '2389' },
        'data-dir': { type: 'string', default: join(import.meta.dirname, '..', '..', '.data', 'demo') },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    console.error(`demo: ${(err as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const port = Number(values.port);
  const emulatorPort = Number(values['emulator-port']);
  const s3Port = Number(values['s3-port']);
  const redisPort = Number(values['redis-port']);
  const pgPort = Number(values['pg-port']);
  const mysqlPort = Number(values['mysql-port']);
  const dynamoPort = Number(values['dynamodb-port']);
  const kubePort = Number(values['kube-port']);
  const etcdPort = Number(values['etcd-port']); // and the next one, for its peers
  const zkPort = Number(values['zookeeper-port']);
  const ports = [port, emulatorPort, s3Port, redisPort, pgPort, mysqlPort, dynamoPort, kubePort, zkPort, etcdPort];
  if (!ports.every((p) => Number.isInteger(p) && p > 0 && p < 65535)) {
    console.error('demo: --port and every --*-port must be port numbers (1-65534)');
    return 2;
  }
  const taken = await takenPort({
    port,
    'emulator-port': emulatorPort,
    's3-port': s3Port,
    'redis-port': redisPort,
    'pg-port': pgPort,
    'mysql-port': mysqlPort,
    'dynamodb-port': dynamoPort,
    'kube-port': kubePort,
    'zookeeper-port': zkPort,
  });
  if (taken) {
    console.error(`demo: ${taken}`);
    return 1;
  }
  if (needsBuild()) {
    console.log('Building the console (first run or sources changed)...');
    buildConsole();
  }
  const bucket = 'lockboard-demo';
  let emulator;
  try {
    emulator = await startEmulator({
      port: emulatorPort,
      buckets: [bucket, PLATFORM_BUCKET],
      dataDir: values['data-dir'],
      faults: { rateLimit: { enabled: true } },
      s3: { port: s3Port },
      // GCS notifications to the console (retried until the console is up): churn of every format, hand deletions
      push: { endpoint: `http://127.0.0.1:${port}/api/gcs-events`, token: PUSH_TOKEN },
    });
  } catch (err) {
    console.error(
      `demo: cannot start the emulator on ports ${emulatorPort} and ${s3Port}: ${(err as Error).message}. Try --emulator-port / --s3-port.`,
    );
    return 1;
  }
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'demo' });
  for (const b of [bucket, PLATFORM_BUCKET]) {
    const [existing] = await storage.bucket(b).getNotifications();
    if (existing.length === 0) {
      await storage.bucket(b).createNotification('projects/demo/topics/lockboard-gcs', {
        eventTypes: ['OBJECT_FINALIZE', 'OBJECT_DELETE'],
        payloadFormat: 'JSON_API_V1',
      });
    }
  }
  const s3Url = emulator.s3!.url;
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: s3Url,
    forcePathStyle: true,
    credentials: { accessKeyId: 'demo', secretAccessKey: 'demo' },
  });
  const holders = await startHolders(storage, bucket, { s3 });
  const servers = await startDemoServers(values['data-dir'], {
    redisPort,
    pgPort,
    mysqlPort,
    dynamoPort,
    kubePort,
    zkPort,
    etcdPort,
  });
  const { redis, postgres, mysql, dynamo, files, kube, zk, etcd } = servers;
  const stopRedis = servers.stop;
  const killServers = servers.kill;
  let console_;
  // The console's whole output in a file the banner names; its warnings and errors printed here as they happen
  const consoleLog = join(values['data-dir'], 'console.log');
  try {
    console_ = await startConsole(
      port,
      {
        LOCKBOARD_DEMO: '1',
        LOCKBOARD_SOURCES: [
          `gs://${bucket}/locks/`,
          `gs://${bucket}/ci/`,
          `gs://${PLATFORM_BUCKET}/`,
          `s3://${S3_BUCKET}/`,
          ...servers.sources,
        ].join(','),
        ...servers.env,
        LOCKBOARD_GCS_ENDPOINT: emulator.url,
        AWS_ENDPOINT_URL_S3: s3Url,
        LOCKBOARD_LONG_HELD: '10m',
        LOCKBOARD_METRICS_TOKEN: 'demo-metrics-token-0123456789',
        LOCKBOARD_PUSH_TOKEN: PUSH_TOKEN,
        NEXTAUTH_SECRET: randomBytes(32).toString('base64'),
        LOCKBOARD_AUDIT_KEY: AUDIT_KEY,
        ...(process.env.LOCKBOARD_ACCESS_FILE ? { LOCKBOARD_ACCESS_FILE: process.env.LOCKBOARD_ACCESS_FILE } : {}),
      },
      '127.0.0.1',
      { file: consoleLog, onProblem: (line) => console.error(`[console] ${line}`) },
    );
  } catch (err) {
    console.error(`demo: ${(err as Error).message}`);
    return shutdown({
      graceful: async () => {
        await Promise.allSettled([holders.stop(), stopRedis()]);
        await emulator.close();
      },
      kill: killServers,
      code: 1,
    });
  }
  console.log(`
Lockboard demo is running.
  Console:   ${console_.url}
  Accounts:  operator@demo.lockboard / operator   (can force-release)
             viewer@demo.lockboard / viewer       (read only)
             ci-team@demo.lockboard / ci-team     (the CI team: operator over gs://lockboard-demo/ci/* only)
             (LOCKBOARD_ACCESS_FILE=deploy/access.example.yaml: the accounts get what that file grants)
  Audit key: LOCKBOARD_AUDIT_KEY=${AUDIT_KEY}   (signs the trail; set it for the CLI too)
  Emulator:  GCS ${emulator.url}, S3 ${s3Url} (data in ${values['data-dir']})
  CLI:       LOCKBOARD_BUCKET=${bucket} LOCKBOARD_GCS_ENDPOINT=${emulator.url} npx lockboard ls
             LOCKBOARD_GCS_ENDPOINT=${emulator.url} npx lockboard ls gs://${PLATFORM_BUCKET}/   (Terraform, Vault, ...)
             AWS_ENDPOINT_URL_S3=${s3Url} npx lockboard ls s3://${S3_BUCKET}/   (Terraform S3 lockfiles, S3 locks)${
               redis ? `\n             npx lockboard ls ${redis.url}   (Redis locks of every common library)` : ''
             }${postgres ? `\n             npx lockboard ls ${postgres.url}   (advisory locks, lock tables)` : ''}${
               mysql
                 ? `\n             npx lockboard ls ${mysql.url}   (Flyway's named lock and its waiter, Liquibase, ShedLock, Laravel)`
                 : ''
             }${
               dynamo
                 ? `\n             AWS_ENDPOINT_URL_DYNAMODB=${dynamo.endpoint} npx lockboard ls dynamodb://tf-locks   (Terraform, lock clients)`
                 : ''
             }${files ? `\n             npx lockboard ls '${files.url}'   (lock files: a live holder, a crash, a stale git lock)` : ''}${kube ? `\n             KUBECONFIG=${kube.env.KUBECONFIG} npx lockboard ls kubernetes://   (client-go leader elections, Terraform)` : ''}${zk ? `\n             npx lockboard ls ${zk.url}   (Curator and kazoo: holders and waiters in queue order)` : ''}${
               etcd
                 ? `\n             npx lockboard status ${etcd.url} jobs/db-migrate   (a wedged etcdctl lock and its waiters)`
                 : ''
             }
  Log:       ${consoleLog} (the console's output; its warnings and errors are also printed here)
  Metrics:   curl -H 'Authorization: Bearer demo-metrics-token-0123456789' ${console_.url}/api/metrics
Press Ctrl-C to stop.`);
  await Promise.race([stopping, new Promise<void>((resolve) => console_.child.once('exit', () => resolve()))]);
  console.log('\nStopping: releasing demo locks, stopping the console and the emulator...');
  return shutdown({
    graceful: async () => {
      await Promise.allSettled([holders.stop(), stopRedis(), console_.stop()]);
      await emulator.close();
    },
    kill: () => {
      killServers();
      if (console_.child.exitCode === null) console_.child.kill('SIGKILL');
    },
    code: 0,
  });
}

process.exitCode = await main();
