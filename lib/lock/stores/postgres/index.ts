// lockboard/postgres: Lockboard's lock on PostgreSQL and the PostgreSQL lock store (advisory locks with their holders,
// lock tables found by shape; guarded force-release). Needs the `pg` package.
import { judgedStoreClass, type Judged } from '../../verdict/judged-store';
import { PostgresLockStore as PostgresStoreReads } from './store';
export { acquirePgLock, withPgLock, type PgAcquireOptions } from './acquire';
export { initLockTables, PgLock } from './lock';
export { type PostgresStoreOptions } from './store';
/** The store's class, judged: every view it hands out carries its verdict (lib/lock/verdict/judged-store.ts). */
export const PostgresLockStore = judgedStoreClass(PostgresStoreReads);
export type PostgresLockStore = Judged<PostgresStoreReads>;
export { advisoryKey } from './advisory';
export { wellKnownKey } from '../sql/well-known-keys';
export { findLockTables, type LockTable, type Queryable, type TableKind } from './tables';
export { parsePostgresSource } from './source';
