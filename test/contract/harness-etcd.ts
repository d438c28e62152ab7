// The contract's etcd: Debian's etcd on free loopback ports, locks written by real `etcdctl lock` processes (Go's
// concurrency.Mutex): alice holds, bob queues and takes over when alice's process ends; the queue case (rule 7) is a
// holder and two waiters, each its own `etcdctl lock` process.
import { startEtcd, type Contender, type Queued, type TestEtcd } from '../helpers/etcd';
import { delay } from '../helpers/requests';
import type { Harness, QueueHarness } from './harnesses';

function queueHarness(etcd: TestEtcd): QueueHarness {
  const name = 'locks/queue';
  const started: Queued[] = [];
  const identity = (key: string) => `lease ${key.slice(name.length + 1)}`;
  return {
    name,
    order: [],
    async start() {
      for (let i = 0; i < 3; i++) started.push(await etcd.queue(['lock', '--ttl', '30', name]));
      await started[0]!.c.waitFor(started[0]!.key);
      this.order.push(...started.slice(1).map((s) => identity(s.key)));
    },
    async holder() {
      // etcdctl lock prints its key when it holds the lock: the last one in queue order that printed it holds now
      for (let i = 0; i < 500; i++) {
        const printed = started.filter((s) => s.c.output().includes(s.key));
        if (printed.length > 1 || i > 100) return identity(printed[printed.length - 1]!.key);
        await delay(2);
      }
      throw new Error('no etcdctl lock holds the queue');
    },
    async stop() {
      for (const s of started) await s.c.stop();
    },
  };
}

export async function etcdHarness(): Promise<Harness> {
  const etcd = await startEtcd();
  let alice: Contender | undefined;
  return {
    kind: 'etcd',
    source: `etcd://${etcd.endpoint}/locks/`,
    env: {},
    lock: 'locks/nightly',
    notALock: 'locks/nightly-config',
    async hold() {
      alice = (await etcd.queue(['lock', '--ttl', '60', 'locks/nightly'])).c;
      etcd.ctl('put', 'locks/nightly-config', JSON.stringify({ schedule: '0 3 * * *' }));
    },
    async successor() {
      const bob = await etcd.queue(['lock', '--ttl', '60', 'locks/nightly']);
      await alice!.stop(); // etcdctl lock unlocks on SIGTERM: bob's etcdctl lock takes it
      await bob.c.waitFor(bob.key);
    },
    queue: queueHarness(etcd),
    stop: () => etcd.stop(),
  };
}
