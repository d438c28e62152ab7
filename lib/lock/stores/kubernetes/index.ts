// lockboard/kubernetes: Lockboard's lock as a client-go style Lease, and the Lease lock store (list, inspect,
// force-release client-go leader elections, Terraform's kubernetes backend locks and other Leases). Needs
// @kubernetes/client-node 1.4.
import { judgedStoreClass, type Judged } from '../../verdict/judged-store';
import { KubeLockStore as KubeStoreReads } from './store';
export { acquireKubeLease, type KubeAcquireOptions } from './acquire';
export { connectKubernetes } from './client';
export { KubeLeaseLock } from './lock';
export { type KubeStoreOptions } from './store';
/** The store's class, judged: every view it hands out carries its verdict (lib/lock/verdict/judged-store.ts). */
export const KubeLockStore = judgedStoreClass(KubeStoreReads);
export type KubeLockStore = Judged<KubeStoreReads>;
export { microTime, KubeRequestError, type Lease, type LeaseApi } from './lease';
export { readLease, notALock } from './formats';
