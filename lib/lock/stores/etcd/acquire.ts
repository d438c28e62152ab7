// acquireEtcdLock: Lockboard's lock on etcd (lock.ts) taken as concurrency.Mutex takes it: a lease, then
// `Txn If(CreateRevision(<name>/<lease hex>) == 0) Then Put(key, "", lease)`, then the queue's turn (wait-turn.ts).
// A timeout, an abort or an error while waiting removes the own key (pinned) and revokes the lease.
import { LockOptionsError } from '../../errors';
import { validateLockName, type LockRequest } from '../../holding/options';
import { recordEtcdEvent } from './audit';
import type { Etcd3Client } from './client';
import { leaseHex } from './formats';
import { EtcdLock } from './lock';
import { waitTurn } from './wait-turn';

export interface EtcdAcquireOptions extends Omit<LockRequest, 'purpose'> {
  /** A connected npm `etcd3` client. */
  client: Etcd3Client;
  /** The lock's key prefix as `etcdctl lock <name>` takes it, e.g. `locks/deploy-prod`. */
  name: string;
  /** The lease TTL (rounded up to whole seconds, at least 2 s); default 60 s, the Go library's default. */
  ttlMs?: number;
  /** Audit events under lockboard/audit/, or false. */
  audit?: false;
}

export async function acquireEtcdLock(o: EtcdAcquireOptions): Promise<EtcdLock> {
  validateLockName(o.name);
  if (o.name.endsWith('/')) throw new LockOptionsError(`Expected a lock name without a trailing "/", got "${o.name}"`);
  const ttlMs = o.ttlMs ?? 60_000;
  if (!Number.isInteger(ttlMs) || ttlMs < 1 || ttlMs > 86_400_000)
    throw new LockOptionsError(`Expected \`ttlMs\` to be an integer from 1 to 86400000, got ${ttlMs}`);
  const { client, name } = o;
  const lease = client.lease(Math.max(2, Math.ceil(ttlMs / 1000)), { autoKeepAlive: true });
  lease.on('lost', () => undefined); // reported by the lock once held
  const id = await lease.grant();
  const key = `${name}/${leaseHex(id)}`;
  let rev = '';
  try {
    const txn = await client
      .if(key, 'Create', '==', 0)
      .then(client.put(key).value('').lease(id))
      .else(client.get(key))
      .commit();
    rev = txn.succeeded ? txn.header.revision : txn.responses[0]!.response_range.kvs[0]!.create_revision;
    await waitTurn(client, { name, key, timeoutMs: o.timeoutMs, signal: o.signal, onWait: o.onWait });
    const lock = new EtcdLock(client, lease, name, key, rev);
    await lock.watchOwnKey();
    if (o.audit !== false)
      await recordEtcdEvent(client, {
        event: 'acquired',
        lock: name,
        identity: o.identity ?? key,
        generation: rev,
      }).catch(() => '');
    return lock;
  } catch (err) {
    if (rev)
      await client
        .if(key, 'Create', '==', rev)
        .then(client.delete().key(key))
        .commit()
        .catch(() => undefined);
    await lease.revoke().catch(() => undefined);
    throw err;
  }
}
