// What a version of this store looks like (checked before anything is sent; a malformed one is a usage error).
import { crc32 } from 'node:zlib';
import type { VersionShape } from '../../store';

/** A named lock's version: the holder's connection id, the server's start (unix seconds) and the name's CRC-32. */
export const NAMED_VERSION = /^(\d+)\.(\d+)\.([0-9a-f]{8})$/;

export const MYSQL_VERSION: VersionShape = {
  test: (v) => NAMED_VERSION.test(v) || (/\|/.test(v) && v.length <= 2000),
  describe:
    'a MySQL version is CONNECTION_ID.SERVER_START.NAME_CRC32 for a named lock (e.g. 42.1795810045.0a1b2c3d), or the ' +
    'row version (fields joined by "|") for a lock table, exactly as `lockboard status --json` shows it (quote it)',
};

/** A named lock's version: its holder connection, the server's start and the name it holds. */
export const namedVersion = (name: string, id: string, startS: number): string =>
  `${id}.${startS}.${crc32(name).toString(16).padStart(8, '0')}`;
