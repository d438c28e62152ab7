// lockboard/zookeeper: Lockboard's lock on ZooKeeper (kazoo's Lock layout) and the ZooKeeper lock store (list,
// inspect and force-release every Curator and kazoo recipe). Needs the `node-zookeeper-client` package.
export { acquireZooKeeperLock, type ZooKeeperAcquireOptions } from './acquire';
export type { ZooKeeperLock } from './lock';
export { ZooKeeperLockStore, type ZooKeeperStoreOptions } from './store';
export { connectZooKeeper, ZkConn } from './conn';
export { parseZooKeeperSource, type ZooKeeperSource } from './source';
export { TwoLeadersError } from './release';
export { splitQueue, recipeNode, type ZkFormat } from './recipes';
