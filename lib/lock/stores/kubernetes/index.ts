// lockboard/kubernetes: Lockboard's lock as a client-go style Lease, and the Lease lock store (list, inspect,
// force-release client-go leader elections, Terraform's kubernetes backend locks and other Leases). Needs
// @kubernetes/client-node 1.4.
export { acquireKubeLease, type KubeAcquireOptions } from './acquire';
export { connectKubernetes } from './client';
export { KubeLeaseLock } from './lock';
export { KubeLockStore, type KubeStoreOptions } from './store';
export { microTime, KubeRequestError, type Lease, type LeaseApi } from './lease';
export { readLease, notALock } from './formats';
