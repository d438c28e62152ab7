// npm run demo: the embedded emulator (persisted, write-rate limit on), simulated holders, and the console. `main` is
// its steps in order: the options, the ports, the console's build, the emulator, the holders, the servers, the
// console, the banner, then a signal (or a crash) and the whole stop.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { S3Client } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { quietSdkNotices } from '../cli/sdk-notices';
import { startEmulator, type Emulator } from '../emulator';
import { banner } from './banner';
import { buildWithProgress, needsBuild, startConsole, type ConsoleProcess } from './console';
import { startHolders, type Holders } from './holders';
import { PLATFORM_BUCKET } from './platform';
import { takenPort } from './ports';
import { S3_BUCKET } from './s3';
import { startDemoServers, type DemoServers } from './servers';
import { Shutdown, stopRequested } from './shutdown';

/** The demo emulator's pushes to the demo console (a shared token, as with any emulator). */
const PUSH_TOKEN = randomBytes(16).toString('hex');
/** The demo's audit signing key: the console's releases are signed with it (give it to the CLI to sign its own). */
const AUDIT_KEY = randomBytes(32).toString('base64url');
const BUCKET = 'lockboard-demo';

const HELP = `Usage: npm run demo -- [--port 3000] [--emulator-port 4443] [--s3-port 4444] [--redis-port 6390] [--pg-port 5439] [--dynamodb-port 4445] [--kube-port 6443] [--zookeeper-port 2191] [--etcd-port 2389] [--data-dir .data/demo]

Starts the GCS and S3 emulator, a Redis, a PostgreSQL, a ZooKeeper and an etcd of its own (when they are installed), simulated lock holders
and the Lockboard console. Ctrl-C stops everything.`;

/** Flag → default port; `port` is the console's. etcd's peers listen on the port after --etcd-port. */
const PORT_FLAGS = {
  port: '3000',
  'emulator-port': '4443',
  's3-port': '4444',
  'redis-port': '6390',
  'kube-port': '6443',
  'pg-port': '5439',
  'dynamodb-port': '4445',
  'zookeeper-port': '2191',
  'etcd-port': '2389',
} as const;

export interface DemoOptions {
  ports: Record<keyof typeof PORT_FLAGS, number>;
  dataDir: string;
}

/** The options, or the exit code when there is nothing to run (help, or a usage error already printed). */
function parseOptions(args: string[]): DemoOptions | number {
  let values;
  try {
    const portOptions = Object.fromEntries(
      Object.entries(PORT_FLAGS).map(([flag, port]) => [flag, { type: 'string' as const, default: port }]),
    );
    ({ values } = parseArgs({
      args,
      options: {
        ...portOptions,
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
  const given = values as Record<string, unknown>;
  const ports = Object.fromEntries(Object.keys(PORT_FLAGS).map((flag) => [flag, Number(given[flag])]));
  if (!Object.values(ports).every((p) => Number.isInteger(p) && p > 0 && p < 65535)) {
    console.error('demo: --port and every --*-port must be port numbers (1-65534)');
    return 2;
  }
  return { ports: ports as DemoOptions['ports'], dataDir: String(values['data-dir']) };
}

/** True when every port is free; otherwise says which one is taken and the flag that moves it. */
async function portsFree({ ports }: DemoOptions): Promise<boolean> {
  const taken = await takenPort(ports);
  if (taken) console.error(`demo: ${taken}`);
  return !taken;
}

/** The GCS and S3 emulator with the demo's buckets, its GCS notifications pushed to the console. */
async function startStorage(o: DemoOptions, life: Shutdown): Promise<Emulator | null> {
  const { port, 'emulator-port': emulatorPort, 's3-port': s3Port } = o.ports;
  let emulator;
  try {
    emulator = await startEmulator({
      port: emulatorPort,
      buckets: [BUCKET, PLATFORM_BUCKET],
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
  for (const b of [BUCKET, PLATFORM_BUCKET]) {
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
    dynamoPort: p['dynamodb-port'],
    kubePort: p['kube-port'],
    zkPort: p['zookeeper-port'],
    etcdPort: p['etcd-port'],
  });
  life.add('the servers', () => servers.stop(), { kill: () => servers.kill() });
  return servers;
}

/** The console on every source the demo configured; its output in a log file, its problems printed here. */
async function startDemoConsole(o: DemoOptions, emulator: Emulator, servers: DemoServers, life: Shutdown) {
  const consoleLog = join(o.dataDir, 'console.log');
  const sources = [`gs://${BUCKET}/locks/`, `gs://${BUCKET}/ci/`, `gs://${PLATFORM_BUCKET}/`, `s3://${S3_BUCKET}/`];
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
      LOCKBOARD_AUDIT_KEY: AUDIT_KEY,
    },
    '127.0.0.1',
    { file: consoleLog, onProblem: (line) => console.error(`[console] ${line}`) },
  );
  life.add('the console', () => console_.stop(), { phase: 0 });
  return { console_, consoleLog };
}

/** Resolves when the demo should stop: a signal, or the console exiting by itself. */
function stopWanted(signalled: Promise<void>, console_: ConsoleProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => console_.child.once('exit', () => resolve()));
  return Promise.race([signalled, exited]);
}

const life = new Shutdown();

async function main(): Promise<number> {
  const signalled = stopRequested();
  const o = parseOptions(process.argv.slice(2));
  if (typeof o === 'number') return o;
  quietSdkNotices(); // the AWS SDK's Node-version notice: the demo's own clients and the console it starts
  if (!(await portsFree(o))) return 1;
  process.on('uncaughtException', (err) => life.crashed(err));
  process.on('unhandledRejection', (err) => life.crashed(err));
  let running = false; // until the banner, a signal stops at once; afterwards main's own wait sees it
  void signalled.then(() => running || life.stop(130));
  if (needsBuild()) await buildWithProgress();
  const emulator = await startStorage(o, life);
  if (!emulator) return 1;
  await startBucketHolders(emulator, life);
  const servers = await startServers(o, life);
  let started;
  try {
    started = await startDemoConsole(o, emulator, servers, life);
  } catch (err) {
    console.error(`demo: ${(err as Error).message}`);
    return life.stop(1);
  }
  console.log(banner({ ...started, emulator, servers, dataDir: o.dataDir, bucket: BUCKET, auditKey: AUDIT_KEY }));
  running = true;
  await stopWanted(signalled, started.console_);
  console.log('\nStopping: releasing demo locks, stopping the console and the emulator...');
  return life.stop(0);
}

process.exitCode = await main().catch((err: unknown) => {
  life.crashed(err); // a step of the start-up failed: the whole stop of what had started
  return 1;
});
