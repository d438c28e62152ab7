// acquireZooKeeperLock: Lockboard's lock on ZooKeeper (lock.ts) taken as kazoo's Lock takes it: an ephemeral sequential
// node `<path>/<uuid4 hex>__lock__<seq>`, then a wait on the predecessor only (no herd) until it is first, until
// timeoutMs; a timeout or an abort removes the own node.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { LockAbortError, LockOptionsError, LockTimeoutError } from '../../errors';
import type { LockRequest } from '../../holding/options';
import type { LockInfo } from '../../types';
import type { ZkConn } from './conn';
import { ZooKeeperLock } from './lock';
import { bySequence, recipeNode } from './recipes';
import { joinPath } from './source';

export interface ZooKeeperAcquireOptions extends LockRequest {
  conn: ZkConn;
  /** The lock's znode path, e.g. `/locks/nightly-report`. */
  name: string;
}

function predecessorOf(names: string[], mine: string): string | null {
  const queue = bySequence(
    names.map(recipeNode).filter((r) => r && r.marker.startsWith('kazoo')) as { seq: string; name: string }[],
  );
  const at = queue.findIndex((n) => n.name === mine);
  return at > 0 ? queue[at - 1]!.name : null;
}

export async function acquireZooKeeperLock(o: ZooKeeperAcquireOptions): Promise<ZooKeeperLock> {
  if (!o.name.startsWith('/') || o.name.endsWith('/'))
    throw new LockOptionsError(`Expected the lock's znode path, e.g. /locks/nightly, got ${JSON.stringify(o.name)}`);
  const { conn } = o;
  const started = Date.now();
  const identity = o.identity ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const data = JSON.stringify({
    format: 'lockboard/1',
    identity,
    host: hostname(),
    pid: String(process.pid),
    ...(o.purpose ? { purpose: o.purpose } : {}),
    acquired_ms: String(started),
  });
  await conn.mkdirp(o.name);
  const prefix = joinPath(o.name, `${randomUUID().replace(/-/g, '')}__lock__`);
  const path = await conn.create(prefix, Buffer.from(data), conn.zk.CreateMode.EPHEMERAL_SEQUENTIAL);
  const mine = path.slice(path.lastIndexOf('/') + 1);
  const giveUp = async (err: Error) => {
    await conn.remove(path, -1).catch(() => undefined);
    throw err;
  };
  for (;;) {
    if (o.signal?.aborted) return giveUp(new LockAbortError(o.name, o.signal.reason));
    const before = predecessorOf(await conn.children(o.name), mine);
    if (!before) break;
    const waited = Date.now() - started;
    const predecessor = await conn.read(joinPath(o.name, before));
    if (!predecessor) continue;
    o.onWait?.({ identity: predecessor.data.toString('utf8') } as LockInfo);
    if (o.timeoutMs !== undefined && waited >= o.timeoutMs) return giveUp(new LockTimeoutError(o.name, null, waited));
    // wait on the predecessor only: its deletion (or the timeout, or the caller's abort) wakes us
    await new Promise<void>((resolve) => {
      const left = o.timeoutMs === undefined ? 2 ** 31 - 1 : Math.max(0, o.timeoutMs - waited);
      const timer = setTimeout(resolve, left);
      const done = () => (clearTimeout(timer), o.signal?.removeEventListener('abort', done), resolve());
      o.signal?.addEventListener('abort', done);
      conn.exists(joinPath(o.name, before), done).then((s) => !s && done(), done);
    });
  }
  return new ZooKeeperLock(conn, o.name, path);
}
