// The demo's local servers beside the emulator, each started where its binary is installed (and said to be off, with
// the flag that moves its port, where it cannot start): Redis, PostgreSQL, MariaDB, DynamoDB (dynalite), lock files, a
// kube-apiserver, ZooKeeper and etcd, with their simulated holders. Stopped together, servers first; each stop on its
// own, so one that throws never keeps the others running.
import { firstLine } from './background';
import { startDemoDynamo } from './dynamodb';
import { startDemoEtcd } from './etcd';
import { startDemoFiles } from './files';
import { startDemoKube } from './kubernetes';
import { startDemoMysql } from './mysql';
import { startDemoPostgres } from './postgres';
import { startDemoRedis } from './redis';
import { pause, runSteps } from './shutdown';
import { Stopper } from './stopper';
import { startDemoZooKeeper } from './zookeeper';

interface DemoPorts {
  redisPort: number;
  pgPort: number;
  mysqlPort: number;
  dynamoPort: number;
  kubePort: number;
  zkPort: number;
  etcdPort: number;
}

/** What every server's start returns: its background loops and its stop (and, for processes, its kill). */
interface Started {
  loops?: Promise<void>[];
  stop(): Promise<void>;
  kill?(): void;
}

/** `start()`, or null with a line saying `what` is off and why (and `flag`, the option that moves its port). */
const optional = <T>(what: string, flag: string | null, start: () => Promise<T | null>): Promise<T | null> =>
  start().catch((err: unknown) => {
    console.error(`demo: ${what} are off: ${firstLine(err)}.${flag ? ` Try --${flag}.` : ''}`);
    return null;
  });

/** The servers first (a holder loop blocked on a query of a server being stopped must not hold the stop up). */
async function stopServers(stop: Stopper, started: Record<string, Started | null>): Promise<void> {
  stop.stop();
  const running = Object.entries(started).flatMap(([name, s]) => (s ? [{ name, s }] : []));
  const loops = running.flatMap(({ s }) => s.loops ?? []);
  await Promise.all([
    runSteps(running.map(({ name, s }) => ({ name, run: () => s.stop() }))),
    Promise.race([Promise.allSettled(loops), pause(2_000)]), // aborted above: each ends at its next await
  ]);
}

export async function startDemoServers(dataDir: string, ports: DemoPorts) {
  const stop = new Stopper();
  const redis = await optional('Redis locks', 'redis-port', () => startDemoRedis(ports.redisPort, stop, dataDir));
  const postgres = await optional('PostgreSQL locks', 'pg-port', () => startDemoPostgres(dataDir, ports.pgPort, stop));
  const mysql = await optional('MySQL/MariaDB locks', 'mysql-port', () =>
    startDemoMysql(dataDir, ports.mysqlPort, stop),
  );
  const dynamo = await optional('DynamoDB locks', 'dynamodb-port', () =>
    startDemoDynamo(ports.dynamoPort, stop, dataDir),
  );
  const files = await optional('lock files', null, () => startDemoFiles(dataDir, stop));
  const kube = await optional('Kubernetes Leases', 'kube-port', () => startDemoKube(dataDir, ports.kubePort, stop));
  const zk = await optional('ZooKeeper locks', 'zookeeper-port', () => startDemoZooKeeper(ports.zkPort, stop, dataDir));
  const etcd = await optional('etcd locks', 'etcd-port', () => startDemoEtcd(dataDir, ports.etcdPort, stop));
  // Azurite from npm, on a free port (loaded only here: the Azure SDK is no other part's)
  const azure = await optional('Azure Blob locks', null, async () =>
    (await import('./azure')).startDemoAzure(stop, dataDir),
  );
  const started: Record<string, Started | null> = {
    Redis: redis,
    PostgreSQL: postgres,
    MariaDB: mysql,
    DynamoDB: dynamo,
    files,
    Kubernetes: kube,
    ZooKeeper: zk,
    etcd,
    Azure: azure,
  };
  const sources = [
    redis?.url,
    postgres?.url,
    mysql?.url,
    ...(dynamo?.sources ?? []),
    files?.url,
    kube?.source,
    zk?.url,
    etcd?.url,
    ...(azure?.sources ?? []),
  ];
  return {
    ...{ redis, postgres, mysql, dynamo, files, kube, zk, etcd, azure },
    /** The sources to add to the console's LOCKBOARD_SOURCES. */
    sources: sources.filter((x): x is string => Boolean(x)),
    env: {
      ...(kube?.env ?? {}),
      ...(dynamo ? { AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint } : {}),
      ...(azure?.env ?? {}),
    },
    stop: () => stopServers(stop, started),
    /** At once, each on its own: the stop is past its deadline. */
    kill: () => runSteps(Object.entries(started).map(([name, s]) => ({ name, run: () => s?.kill?.() }))),
  };
}

export type DemoServers = Awaited<ReturnType<typeof startDemoServers>>;
