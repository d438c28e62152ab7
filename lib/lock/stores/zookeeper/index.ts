// lockboard/zookeeper: Lockboard's lock on ZooKeeper (kazoo's Lock layout) and the ZooKeeper lock store (list,
// inspect and force-release every Curator and kazoo recipe). Needs the `node-zookeeper-client` package.
import { judgedStoreClass, type Judged } from '../../verdict/judged-store';
import { ZooKeeperLockStore as ZooKeeperStoreReads } from './store';
export { acquireZooKeeperLock, type ZooKeeperAcquireOptions } from './acquire';
export type { ZooKeeperLock } from './lock';
export { type ZooKeeperStoreOptions } from './store';
/** The store's class, judged: every view it hands out carries its verdict (lib/lock/verdict/judged-store.ts). */
export const ZooKeeperLockStore = judgedStoreClass(ZooKeeperStoreReads);
export type ZooKeeperLockStore = Judged<ZooKeeperStoreReads>;
export { connectZooKeeper, ZkConn } from './conn';
export { parseZooKeeperSource, type ZooKeeperSource } from './source';
export { TwoLeadersError } from './release';
export { splitQueue, recipeNode, type ZkFormat } from './recipes';
