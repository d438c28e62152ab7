// Untrusted etcd values (#39): what three 1 MiB values (etcd takes up to 1.5 MiB) beside 1 000 locks cost the
// listing's read of keys and values, against the read a user would otherwise make (one range read of the prefix,
// every value whole, as the listing did before): bytes etcd made for the replies (refused ones included), this
// process's memory, time; the first read (which finds the large values, their replies refused from the length
// prefix) and the next one (which knows them) apart; and one whole listing for scale (its lease reads dominate).
import { Etcd3, Range } from 'etcd3';
import { readKeysOnly, VALUE_MESSAGE_CAP, withBoundedValues } from '@/lib/lock/stores/etcd/bounded-read';
import { connectEtcd } from '@/lib/lock/stores/etcd/client';
import { parseEtcdSource } from '@/lib/lock/stores/etcd/source';
import { openSource, parseSource } from '@/lib/lock/stores';
import { startEtcd } from '../helpers/etcd';
import { printTable, round, writeJson } from './report';

const LOCKS = 1_000;
const MB = 2 ** 20;

export async function benchUntrustedEtcd() {
  const etcd = await startEtcd();
  const client = new Etcd3({ hosts: `http://${etcd.endpoint}` });
  try {
    const lease = client.lease(600, { autoKeepAlive: false });
    await lease.grant();
    for (let i = 0; i < LOCKS; i += 100)
      await Promise.all(Array.from({ length: 100 }, (_, j) => lease.put(`app/job-${i + j}`).value('')));
    const sent = async () => {
      const text = await (await fetch(`http://${etcd.endpoint}/metrics`)).text();
      return Number(/^etcd_network_client_grpc_sent_bytes_total (\S+)$/m.exec(text)![1]);
    };
    const measure = async (what: string, run: () => Promise<number>) => {
      global.gc?.();
      const [bytes0, rss0, heap0] = [await sent(), process.memoryUsage().rss, process.memoryUsage().heapUsed];
      const started = performance.now();
      const listed = await run();
      const ms = performance.now() - started;
      const [bytes1, rss1, heap1] = [await sent(), process.memoryUsage().rss, process.memoryUsage().heapUsed];
      return {
        what,
        listed,
        'etcd replies MB': round((bytes1 - bytes0) / MB, 2),
        'RSS growth MB': round((rss1 - rss0) / MB),
        'heap growth MB': round((heap1 - heap0) / MB),
        ms: round(ms),
      };
    };
    const store = await openSource(parseSource(`etcd://${etcd.endpoint}/app/`), { env: {}, role: 'console' });
    // the listing's read of keys and values alone (its lease reads, one per lock, are the same either way)
    const values = await connectEtcd(
      parseEtcdSource(`etcd://${etcd.endpoint}/app/`),
      { role: 'console' },
      VALUE_MESSAGE_CAP,
    );
    const all = Range.prefix('app/');
    const bounded = async () =>
      (await withBoundedValues(values, await readKeysOnly(client, all.start, all.end))).length;
    const baseline = () =>
      client
        .getAll()
        .prefix('app/')
        .exec()
        .then((r) => r.kvs.length);
    await bounded(); // warm: the first read connects
    const listing = await measure('whole listing (with one lease read per lock), 1 000 locks', () =>
      store.list().then((p) => p.locks.length),
    );
    const rows = [await measure('bounded read, 1 000 locks', bounded)];
    rows.push(await measure('range read of the prefix, 1 000 locks', baseline));
    for (const k of ['big-a', 'big-b', 'big-c']) await lease.put(`app/${k}`).value(Buffer.alloc(MB, 'x'));
    rows.push(await measure('bounded read + three 1 MiB values (first)', bounded));
    rows.push(await measure('bounded read + three 1 MiB values (next)', bounded));
    rows.push(await measure('range read of the prefix + three 1 MiB values', baseline));
    await store.close();
    values.close();
    printTable('etcd keys and values of a prefix with three 1 MiB values (this process)', [...rows, listing]);
    writeJson('untrusted-etcd', { locks: LOCKS, reads: rows, listing });
  } finally {
    client.close();
    await etcd.stop();
  }
}
