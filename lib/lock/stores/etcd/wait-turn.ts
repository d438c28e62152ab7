// Waiting in the Mutex queue: until the own key has the lowest create revision among the lock's keys (parsed
// strictly, so lock `a/b`'s keys never count for lock `a`), woken by a watch on the queue's deletes rather than by
// polling. The own key vanishing while waiting is a loss, as newer Go clients treat it (ErrSessionExpired): 3.4
// clients that go on after it are how a removed waiter becomes a second holder.
import { LockAbortError, LockLostError, LockTimeoutError } from '../../errors';
import { monotonicNow } from '../../time';
import type { LockInfo } from '../../types';
import { kvOf, type Etcd3Client } from './client';
import { classifyKey, readLocks, type EtcdReading } from './formats';
import { etcdView } from './view';

async function readQueue(client: Etcd3Client, name: string): Promise<{ reading?: EtcdReading; rev: string }> {
  const res = await client.getAll().prefix(`${name}/`).sort('Create', 'Ascend').exec();
  const kvs = res.kvs.map(kvOf).filter((kv) => classifyKey(kv)?.name === name);
  return { reading: readLocks(kvs).locks[0], rev: res.header.revision };
}

/** Resolves on the first delete under `prefix` after `rev`, after `ms`, or when `signal` aborts. */
async function nextDelete(client: Etcd3Client, prefix: string, rev: string, ms: number, signal?: AbortSignal) {
  const w = await client
    .watch()
    .prefix(prefix)
    .startRevision(String(BigInt(rev) + 1n))
    .create();
  let done = () => {};
  try {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), ms);
      done = () => {
        clearTimeout(timer);
        resolve();
      };
      w.on('delete', done);
      w.on('error', done);
      signal?.addEventListener('abort', done, { once: true });
    });
  } finally {
    // one listener per round on a signal that outlives every round: left behind, they piled up past Node's 10
    signal?.removeEventListener('abort', done);
    await w.cancel().catch(() => undefined);
  }
}

export async function waitTurn(
  client: Etcd3Client,
  o: { name: string; key: string; timeoutMs?: number; signal?: AbortSignal; onWait?: (holder: LockInfo) => void },
): Promise<void> {
  const started = monotonicNow();
  const holderInfo = (r: EtcdReading) =>
    etcdView(r, null, { source: 'etcd', now: Date.now(), firstSeen: new Map() }) as LockInfo;
  for (;;) {
    if (o.signal?.aborted) throw new LockAbortError(o.name, o.signal.reason);
    const { reading, rev } = await readQueue(client, o.name);
    const mine = reading && (reading.holder.key === o.key || reading.waiters.some((w) => w.key === o.key));
    if (!reading || !mine)
      throw new LockLostError(o.name, 'released-by-operator', `the waiting key ${o.key} was deleted`);
    if (reading.holder.key === o.key) return;
    o.onWait?.(holderInfo(reading));
    const waited = monotonicNow() - started;
    if (o.timeoutMs !== undefined && waited >= o.timeoutMs)
      throw new LockTimeoutError(o.name, holderInfo(reading), Math.round(waited));
    const left = o.timeoutMs === undefined ? 1_000 : Math.min(1_000, o.timeoutMs - waited);
    await nextDelete(client, `${o.name}/`, rev, Math.max(1, left), o.signal);
  }
}
