// The demo's local servers beside the emulator, each started where its binary is installed (and said to be off, with
// the flag that moves its port, where it cannot start): Redis, PostgreSQL, DynamoDB (dynalite), lock files, a
// kube-apiserver, ZooKeeper and etcd, with their simulated holders. Stopped together, servers first.
import { startDemoDynamo } from './dynamodb';
import { startDemoEtcd } from './etcd';
import { startDemoFiles } from './files';
import { startDemoKube } from './kubernetes';
import { startDemoMysql } from './mysql';
import { startDemoPostgres } from './postgres';
import { startDemoRedis } from './redis';
import { pause } from './shutdown';
import { Stopper } from './stopper';
import { startDemoZooKeeper } from './zookeeper';

export interface DemoPorts {
  redisPort: number;
  pgPort: number;
  dynamoPort: number;
  kubePort: number;
  zkPort: number;
  etcdPort: number;
  mysqlPort: number;
}

export async function startDemoServers(dataDir: string, ports: DemoPorts) {
  const { redisPort, pgPort, dynamoPort, kubePort, zkPort, etcdPort } = ports;
  const values = { 'data-dir': dataDir };
  const redisStop = new Stopper();
  const redis = await startDemoRedis(redisPort, redisStop).catch((err: unknown) => {
    console.error(`demo: Redis locks are off: ${(err as Error).message}. Try --redis-port.`);
    return null;
  });
  const postgres = await startDemoPostgres(values['data-dir'], pgPort, redisStop).catch((err: unknown) => {
    console.error(`demo: PostgreSQL locks are off: ${(err as Error).message}. Try --pg-port.`);
    return null;
  });
  const mysql = await startDemoMysql(values['data-dir'], ports.mysqlPort, redisStop).catch((err: unknown) => {
    console.error(`demo: MySQL/MariaDB locks are off: ${(err as Error).message}. Try --mysql-port.`);
    return null;
  });
  const dynamo = await startDemoDynamo(dynamoPort, redisStop).catch((err: unknown) => {
    console.error(`demo: DynamoDB locks are off: ${(err as Error).message}. Try --dynamodb-port.`);
    return null;
  });
  const files = await startDemoFiles(values['data-dir'], redisStop).catch((err: unknown) => {
    console.error(`demo: lock files are off: ${(err as Error).message}.`);
    return null;
  });
  const kube = await startDemoKube(values['data-dir'], kubePort, redisStop).catch((err: unknown) => {
    console.error(`demo: Kubernetes Leases are off: ${(err as Error).message}. Try --kube-port.`);
    return null;
  });
  const zk = await startDemoZooKeeper(zkPort, redisStop).catch((err: unknown) => {
    console.error(`demo: ZooKeeper locks are off: ${(err as Error).message}. Try --zookeeper-port.`);
    return null;
  });
  const etcd = await startDemoEtcd(values['data-dir'], etcdPort, redisStop).catch((err: unknown) => {
    console.error(`demo: etcd locks are off: ${(err as Error).message}. Try --etcd-port.`);
    return null;
  });
  // The servers go first: a holder loop blocked on a query of a server being stopped must not hold the stop up
  const stopRedis = async () => {
    redisStop.stop();
    await Promise.allSettled([
      redis?.stop(),
      postgres?.stop(),
      mysql?.stop(),
      dynamo?.stop(),
      files?.stop(),
      kube?.stop(),
      zk?.stop(),
      etcd?.stop(),
    ]);
    const loops = [redis, postgres, mysql, dynamo, files, zk, etcd].flatMap((s) => s?.loops ?? []);
    await Promise.race([Promise.allSettled(loops), pause(2_000)]);
  };
  const killServers = () => {
    redis?.kill();
    postgres?.kill();
    mysql?.kill();
    kube?.kill();
    zk?.kill();
    etcd?.kill();
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
  ];
  const env: Record<string, string> = {
    ...(kube?.env ?? {}),
    ...(dynamo ? { AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint } : {}),
  };
  return {
    redis,
    postgres,
    mysql,
    dynamo,
    files,
    kube,
    zk,
    etcd,
    /** The sources to add to the console's LOCKBOARD_SOURCES. */
    sources: sources.filter((x): x is string => Boolean(x)),
    env,
    stop: stopRedis,
    kill: killServers,
  };
}
