// etcd, on Debian's etcd-server: requests per listing of 500 Mutex locks (a holder and two waiters each) among 10 000
// keys, and per force-release, against the bare npm etcd3 client doing the same work (one range of the prefix, one
// LeaseTimeToLive per holder; one pinned Txn); and the handover to a real `etcdctl lock` waiter after a release,
// against what an operator gets without one: killing the wedged holder and waiting out its lease.
import { Etcd3 } from 'etcd3';
import { EtcdLockStore } from '@/lib/lock/stores/etcd';
import { startEtcd } from '../helpers/etcd';
import { printTable, quantile, round, writeJson } from './report';

const LOCKS = 500;
const KEYS = 10_000;

function countingClient(endpoint: string) {
  const counter = { requests: 0 };
  const client = new Etcd3({
    hosts: `http://${endpoint}`,
    defaultCallOptions: (ctx) => {
      if (!ctx.isStream) counter.requests++;
      return {};
    },
  });
  return { client, counter };
}

async function fill(client: Etcd3): Promise<void> {
  for (let i = 0; i < LOCKS; i += 50) {
    await Promise.all(
      Array.from({ length: 50 * 3 }, async (_, j) => {
        const lease = client.lease(600, { autoKeepAlive: false });
        const id = await lease.grant();
        await lease.put(`locks/job-${i + Math.floor(j / 3)}/${BigInt(id).toString(16)}`).value('');
      }),
    );
  }
  const others = Array.from({ length: KEYS - LOCKS * 3 }, (_, i) => `locks/config-${i}`);
  for (let i = 0; i < others.length; i += 500)
    await Promise.all(others.slice(i, i + 500).map((k) => client.put(k).value(`{"n":${k.length}}`)));
}

async function best<T>(runs: number, counter: { requests: number }, fn: () => Promise<T>) {
  let ms = Infinity;
  let requests = 0;
  for (let run = 0; run < runs; run++) {
    counter.requests = 0;
    const t0 = performance.now();
    await fn();
    ms = Math.min(ms, performance.now() - t0);
    requests = counter.requests;
  }
  return { ms: round(ms), requests };
}

export async function benchEtcd() {
  const etcd = await startEtcd();
  const { client, counter } = countingClient(etcd.endpoint);
  await fill(client);
  const store = new EtcdLockStore({ client, prefix: 'locks/', source: `etcd://${etcd.endpoint}/locks/` });
  const bare = await best(5, counter, async () => {
    const res = await client.getAll().prefix('locks/').sort('Create', 'Ascend').exec();
    const holders = new Map<string, string>();
    for (const kv of res.kvs) {
      const name = kv.key.toString().replace(/\/[0-9a-f]+$/, '');
      if (kv.lease !== '0' && !holders.has(name)) holders.set(name, kv.lease);
    }
    await Promise.all([...holders.values()].map((ID) => client.leaseClient.leaseTimeToLive({ ID, keys: true })));
  });
  let found = 0;
  const ours = await best(5, counter, async () => (found = (await store.list()).locks.length));
  const listing = [
    { listing: 'bare etcd3: range + LeaseTimeToLive per holder (baseline)', keys: KEYS, locks: '-', ...bare, ratio: 1 },
    { listing: 'EtcdLockStore.list', keys: KEYS, locks: found, ...ours, ratio: round(ours.ms / bare.ms, 2) },
  ];
  printTable(`Listing ${LOCKS} locks (a holder and two waiters each) among ${KEYS} keys (best of 5)`, listing);

  const view = (await store.inspect('locks/job-1'))!;
  counter.requests = 0;
  const result = await store.forceRelease({ name: 'locks/job-1', version: view.version, reason: 'b', operator: 'b' });
  const ops = [
    {
      operation: 'bare etcd3: pinned Txn delete (baseline)',
      requests: 1,
      detail: 'If(CreateRevision == seen) Then Delete',
    },
    {
      operation: `EtcdLockStore.forceRelease (${result.outcome})`,
      requests: counter.requests,
      detail: 'range of the queue; audit put; the pinned Txn; the lock as it is now (range + TimeToLive); audit put',
    },
  ];
  printTable('Requests per force-release', ops);

  const handover: number[] = [];
  for (let i = 0; i < 10; i++) {
    const name = `handover/run-${i}`;
    await etcd.queue(['lock', '--ttl', '10', name]);
    const next = await etcd.queue(['lock', '--ttl', '10', name]);
    const seen = (await store.inspect(name))!;
    const t0 = performance.now();
    await store.forceRelease({ name, version: seen.version, reason: 'b', operator: 'b' });
    handover.push((await next.c.waitFor(next.key)) - t0);
  }
  const wedged = await etcd.queue(['lock', '--ttl', '5', 'handover/killed']);
  const after = await etcd.queue(['lock', '--ttl', '5', 'handover/killed']);
  const t0 = performance.now();
  wedged.c.child.kill('SIGKILL'); // what an operator does without Lockboard: the lease still has to run out
  const killedMs = (await after.c.waitFor(after.key, 15_000)) - t0;
  const handovers = [
    {
      how: 'Lockboard force-release of the holder (10 runs)',
      p50: round(quantile(handover, 0.5)),
      p95: round(quantile(handover, 0.95)),
    },
    { how: 'kill -9 the holder, wait out its 5 s lease (baseline)', p50: round(killedMs), p95: round(killedMs) },
  ];
  printTable('Handover to the next etcdctl lock waiter (ms, from the request to the waiter holding)', handovers);
  client.close();
  await etcd.stop();
  writeJson('etcd', { keys: KEYS, locks: LOCKS, listing, ops, handovers });
  return { listing, ops, handovers };
}
