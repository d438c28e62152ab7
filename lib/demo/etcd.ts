// The demo's etcd, when Debian's etcd-server is installed: a one-member server of its own (fresh data each start)
// with a wedged `etcdctl lock` holder (alive, so its lease never runs out) and two waiters queued behind it, an
// `etcdctl elect` leader and a candidate, an npm etcd3 lock, Lockboard's own etcd locks passed between three
// simulated workers, and a configuration key beside them that is not a lock.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { acquireEtcdLock } from '../lock/stores/etcd';
import { background } from './background';
import { signalGroup, spawnGroup } from './children';
import { sleep } from './sleep';
import type { Stopper } from './stopper';

export interface DemoEtcd {
  url: string;
  loops: Promise<void>[];
  stop(): Promise<void>;
  kill(): void;
}

const installed = (bin: string, arg: string) => spawnSync(bin, [arg]).status === 0;

/** etcd on `port` (peers on `port + 1`), resolved once `etcdctl endpoint health` says so. */
async function startServer(dataDir: string, port: number, stop: Stopper): Promise<ChildProcess> {
  const dir = join(dataDir, 'etcd');
  rmSync(dir, { recursive: true, force: true });
  const [client, peer] = [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`];
  const server = spawnGroup(
    'etcd',
    [
      ...['--name', 'demo', '--data-dir', dir, '--listen-client-urls', client, '--advertise-client-urls', client],
      ...['--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer, '--initial-cluster', `demo=${peer}`],
      ...['--log-level', 'error'],
    ],
    { stdio: 'ignore' },
  );
  // etcdctl, not the client: a gRPC channel refused at first backs off for seconds before it tries again
  for (let i = 0; spawnSync('etcdctl', ['--endpoints', client, 'endpoint', 'health']).status !== 0; i++) {
    if (i > 150 || server.exitCode !== null) {
      signalGroup(server, 'SIGKILL');
      throw new Error(
        `etcd did not start on port ${port} (peers on ${port + 1})${server.exitCode !== null ? `: it exited with ${server.exitCode}` : ''}`,
      );
    }
    await sleep(100, stop.signal());
  }
  return server;
}

/** `etcdctl lock` and `elect` holders and waiters, each queued after the one before (its own process group). */
async function etcdctlHolders(endpoint: string, children: ChildProcess[], stop: Stopper): Promise<void> {
  const ctl = (...args: string[]) => {
    const child = spawnGroup('etcdctl', ['--endpoints', endpoint, ...args], {
      stdio: 'ignore',
      env: { ...process.env, ETCDCTL_API: '3' },
    });
    children.unshift(child);
    return sleep(300, stop.signal()); // queued in this order
  };
  await ctl('lock', '--ttl', '30', 'jobs/db-migrate'); // wedged: alive, so it holds the lock for good
  await ctl('lock', '--ttl', '30', 'jobs/db-migrate');
  await ctl('lock', '--ttl', '30', 'jobs/db-migrate');
  await ctl('elect', 'leaders/scheduler', 'scheduler-a.prod:7070');
  await ctl('elect', 'leaders/scheduler', 'scheduler-b.prod:7070');
}

/** Lockboard's own etcd lock passed between three workers. */
function workers(etcd: Etcd3, stop: Stopper): Promise<void>[] {
  return [0, 1, 2].map((i) =>
    background(`etcd worker indexer-${i}`, stop, async (signal) => {
      const lock = await acquireEtcdLock({
        client: etcd,
        name: 'jobs/search-reindex',
        identity: `indexer-${i}`,
        ttlMs: 10_000,
        signal,
      }).catch(() => null);
      await sleep(2_000 + Math.random() * 2_000, signal);
      await lock?.release().catch(() => undefined);
      await sleep(1_000, signal);
    }),
  );
}

/** Starts etcd on `port` (peers on `port + 1`), or returns null (and says how to install it) when it is not installed. */
export async function startDemoEtcd(dataDir: string, port: number, stop: Stopper): Promise<DemoEtcd | null> {
  if (!installed('etcd', '--version') || !installed('etcdctl', 'version')) {
    console.log(
      'etcd locks: etcd is not installed, so the demo shows none (apt-get install -y etcd-server etcd-client).',
    );
    return null;
  }
  const server = await startServer(dataDir, port, stop);
  const children: ChildProcess[] = [server];
  const endpoint = `http://127.0.0.1:${port}`;
  await etcdctlHolders(endpoint, children, stop);
  const etcd = new Etcd3({ hosts: endpoint });
  await etcd.put('config/feature-flags').value('{"newCheckout":true}'); // not a lock
  const npmLock = etcd.lock('jobs/report-cache').ttl(30);
  await npmLock.acquire();
  return {
    url: `etcd://127.0.0.1:${port}/`,
    loops: workers(etcd, stop),
    async stop() {
      await npmLock.release().catch(() => undefined);
      for (const c of children) signalGroup(c, 'SIGTERM');
      etcd.close();
    },
    kill() {
      for (const c of children) signalGroup(c, 'SIGKILL');
    },
  };
}
