// What a version of this store looks like (checked before anything is sent; a malformed one is a usage error): an
// advisory lock's holder, or a lock table row's fields as read (../sql/row-version.ts), by the kind of its table.
import type { VersionShape } from '../../store';
import { looksLikeRowVersion, type RowVersionKind } from '../sql/row-version';
import type { TableKind } from './tables';

/** An advisory lock's version: the holder's pid and backend start, and the lock's key. */
export const ADVISORY_VERSION = /^\d+\.(\d+|hidden)\.\d+\.\d+\.\d+\.\d+$/;

export const ADVISORY_SHAPE = "an advisory lock's version is PID.BACKEND_START_US.DATABASE.CLASSID.OBJID.OBJSUBID";

export const POSTGRES_VERSION: VersionShape = {
  test: (v) => ADVISORY_VERSION.test(v) || looksLikeRowVersion(v),
  describe:
    'a PostgreSQL version is PID.BACKEND_START_US.DATABASE.CLASSID.OBJID.OBJSUBID for an advisory lock, or the ' +
    'row\'s fields as read, as a JSON array, for a lock table (e.g. ["report","app-1","2026-11-29 05:01:02.123",' +
    '"2026-11-29 05:11:02.123"] for ShedLock), exactly as `lockboard status --json` shows it (quote it)',
};

/** Each lock table kind's row version: the fields its release statement pins. */
export const ROW_VERSIONS: Record<TableKind, RowVersionKind> = {
  'lockboard-table': { label: 'a Lockboard lock row', fields: ['NAME', 'TOKEN'], patterns: { 1: /^\d+$/ } },
  'unique-index': { label: 'a unique-index lock row', fields: ['NAMED', 'PID', 'INS'], patterns: { 1: /^\d+$/ } },
  shedlock: { label: 'a ShedLock row', fields: ['NAME', 'LOCKED_BY', 'LOCKED_AT', 'LOCK_UNTIL'] },
  liquibase: { label: 'a Liquibase lock row', fields: ['ID', 'LOCKEDBY', 'LOCKGRANTED'], patterns: { 0: /^-?\d+$/ } },
  laravel: { label: 'a Laravel cache lock', fields: ['KEY', 'OWNER', 'EXPIRATION'], patterns: { 2: /^-?\d+$/ } },
  'db-scheduler': {
    label: 'a db-scheduler execution',
    fields: ['TASK_NAME', 'TASK_INSTANCE', 'VERSION'],
    patterns: { 2: /^-?\d+$/ },
  },
};
