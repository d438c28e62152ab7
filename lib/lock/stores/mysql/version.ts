// What a version of this store looks like (checked before anything is sent; a malformed one is a usage error): a named
// lock's holder, or a lock table row's fields as read (../sql/row-version.ts), by the kind of its table.
import { crc32 } from 'node:zlib';
import type { VersionShape } from '../../store';
import { looksLikeRowVersion, type RowVersionKind } from '../sql/row-version';
import type { MysqlTableKind } from './tables';

/** A named lock's version: the holder's connection id, the server's start (unix seconds) and the name's CRC-32. */
export const NAMED_VERSION = /^(\d+)\.(\d+)\.([0-9a-f]{8})$/;

export const NAMED_SHAPE =
  "a named lock's version is CONNECTION_ID.SERVER_START.NAME_CRC32 (e.g. 42.1795810045.0a1b2c3d)";

export const MYSQL_VERSION: VersionShape = {
  test: (v) => NAMED_VERSION.test(v) || looksLikeRowVersion(v),
  describe:
    'a MySQL version is CONNECTION_ID.SERVER_START.NAME_CRC32 for a named lock (e.g. 42.1795810045.0a1b2c3d), or the ' +
    'row\'s fields as read, as a JSON array, for a lock table (e.g. ["report","worker-1","2026-11-29 05:01:02.123",' +
    '"2026-11-29 05:11:02.123"] for ShedLock, ["KEY","OWNER","EXPIRATION"] for Laravel), exactly as ' +
    '`lockboard status --json` shows it (quote it)',
};

/** Each lock table kind's row version: the fields its release statement pins. */
export const ROW_VERSIONS: Record<MysqlTableKind, RowVersionKind> = {
  shedlock: { label: 'a ShedLock row', fields: ['NAME', 'LOCKED_BY', 'LOCKED_AT', 'LOCK_UNTIL'] },
  liquibase: { label: 'a Liquibase lock row', fields: ['ID', 'LOCKEDBY', 'LOCKGRANTED'], patterns: { 0: /^-?\d+$/ } },
  laravel: { label: 'a Laravel cache lock', fields: ['KEY', 'OWNER', 'EXPIRATION'], patterns: { 2: /^-?\d+$/ } },
  quartz: { label: 'a Quartz lock row', fields: ['SCHED_NAME', 'LOCK_NAME'] },
};

/** A named lock's version: its holder connection, the server's start and the name it holds. */
export const namedVersion = (name: string, id: string, startS: number): string =>
  `${id}.${startS}.${crc32(name).toString(16).padStart(8, '0')}`;
