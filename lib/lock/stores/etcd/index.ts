// lockboard/etcd: Lockboard's lock on etcd in Go's concurrency.Mutex layout (one queue with `etcdctl lock`), and the
// etcd lock store (list, inspect, force-release the holder of Mutex, Election, npm etcd3 and python3-etcd3 locks,
// waiters shown in grant order). Needs the `etcd3` package.
import { judgedStoreClass, type Judged } from '../../verdict/judged-store';
import { EtcdLockStore as EtcdStoreReads } from './store';
export { acquireEtcdLock, type EtcdAcquireOptions } from './acquire';
export { EtcdLock } from './lock';
export { type EtcdStoreOptions } from './store';
/** The store's class, judged: every view it hands out carries its verdict (lib/lock/verdict/judged-store.ts). */
export const EtcdLockStore = judgedStoreClass(EtcdStoreReads);
export type EtcdLockStore = Judged<EtcdStoreReads>;
export { classifyKey, readLocks, type EtcdFormat, type EtcdKv, type EtcdReading } from './formats';
export { parseEtcdSource, type EtcdSource } from './source';
