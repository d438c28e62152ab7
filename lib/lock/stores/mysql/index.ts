// lockboard/mysql: the MySQL and MariaDB lock store (named locks with their holder connections and waiters, lock
// tables found by shape; a guarded KILL or one conditional statement to release) and Lockboard's own named lock.
// Needs the `mysql2` package.
export { acquireMysqlLock, withMysqlLock, type MysqlAcquireOptions } from './acquire';
export { asDb, type Db } from './client';
export { MysqlLock, namedLockOf } from './lock';
export { MysqlLockStore, type MysqlStoreOptions } from './store';
export { findLockTables, type MysqlLockTable, type MysqlTableKind } from './tables';
export { flywayLockName, namedTool } from './tools';
export { parseMysqlSource } from './source';
export { maskStatement } from './mask';
