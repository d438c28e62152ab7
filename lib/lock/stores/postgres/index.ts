// lockboard/postgres: Lockboard's lock on PostgreSQL and the PostgreSQL lock store (advisory locks with their holders,
// lock tables found by shape; guarded force-release). Needs the `pg` package.
export { acquirePgLock, withPgLock, type PgAcquireOptions } from './acquire';
export { initLockTables, PgLock } from './lock';
export { PostgresLockStore, type PostgresStoreOptions } from './store';
export { advisoryKey, wellKnownKey } from './advisory';
export { findLockTables, type LockTable, type Queryable, type TableKind } from './tables';
export { parsePostgresSource } from './source';
