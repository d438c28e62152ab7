// lockboard/mysql: the MySQL and MariaDB lock store (named locks with their holder connections and waiters, lock
// tables found by shape; a guarded KILL or one conditional statement to release) and Lockboard's own named lock.
// Needs the `mysql2` package.
import { judgedStoreClass, type Judged } from '../../verdict/judged-store';
import { MysqlLockStore as MysqlStoreReads } from './store';
export { acquireMysqlLock, withMysqlLock, type MysqlAcquireOptions } from './acquire';
export { asDb, type Db } from './client';
export { MysqlLock, namedLockOf } from './lock';
export { type MysqlStoreOptions } from './store';
/** The store's class, judged: every view it hands out carries its verdict (lib/lock/verdict/judged-store.ts). */
export const MysqlLockStore = judgedStoreClass(MysqlStoreReads);
export type MysqlLockStore = Judged<MysqlStoreReads>;
export { findLockTables, type MysqlLockTable, type MysqlTableKind } from './tables';
export { flywayLockName, namedTool } from './tools';
export { parseMysqlSource } from './source';
export { maskStatement } from './mask';
