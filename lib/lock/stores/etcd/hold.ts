// Holds on etcd: a key `<name>/<lease hex>` on a lease of the hold's length, created as concurrency.Mutex creates its
// key (`Txn If(CreateRevision == 0) Then Put`), with the hold's owner and reason as its value. `etcdctl lock` and every
// Mutex contender queue behind it by create revision and wait; etcd deletes it when the lease runs out. Like TryLock,
// a key that is not first in the queue is taken back at once (refused: something holds the lock).
import type { HoldFormat, StoreHolds } from '../../hold-types';
import { holdOwner } from '../../hold-marker';
import { connectEtcd } from './client';
import { leaseHex } from './formats';
import { parseEtcdSource } from './source';

const ETCD_HOLD: HoldFormat = {
  id: 'etcd-mutex',
  label: 'an etcd Mutex key on a lease',
  maxMs: 366 * 86_400_000,
  maxWords: 'its lease TTL in whole seconds; Lockboard takes durations up to 366 days',
  endsItself: true,
  fits: (name) => !name.endsWith('/'),
};

export const etcdHolds: StoreHolds = {
  formats: [ETCD_HOLD],
  async place(spec, o, plan) {
    const client = await connectEtcd(parseEtcdSource(spec.url, o.env), o);
    try {
      const lease = client.lease(Math.max(2, Math.ceil((plan.untilMs - plan.sinceMs) / 1000)), {
        autoKeepAlive: false,
      });
      const id = await lease.grant();
      const key = `${plan.name}/${leaseHex(id)}`;
      const value = holdOwner(plan.operator, plan.untilMs, plan.reason);
      const txn = await client.if(key, 'Create', '==', 0).then(client.put(key).value(value).lease(id)).commit();
      const queue = await client.getAll().prefix(`${plan.name}/`).sort('Create', 'Ascend').limit(1).keys();
      if (txn.succeeded && queue[0] === key) return true;
      await lease.revoke();
      return false;
    } finally {
      client.close();
    }
  },
};
