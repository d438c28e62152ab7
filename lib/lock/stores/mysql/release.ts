// The one conditional mutation per lock (facts-mysql.md): a named lock's holder connection killed only while it still
// holds that lock and the server is the one that was read (MariaDB: one anonymous block; MySQL 8 has none, so a read
// and a KILL, the narrowest form it allows); a table row changed only if it is exactly the row as read, the way its
// tool itself releases (Liquibase's row kept with LOCKED = 0, ShedLock's lock_until set to now, Laravel's row deleted).
import type { Db } from './client';
import { START_SLACK_S } from './server';
import { VersionShapeError } from '../../store';
import { describeRowVersion, parseRowVersion } from '../sql/row-version';
import { findLockTables, ident, type MysqlLockTable } from './tables';
import { NAMED_SHAPE, NAMED_VERSION, namedVersion, ROW_VERSIONS } from './version';

const UPTIME_START = `UNIX_TIMESTAMP() - (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'UPTIME')`;

const MARIADB_KILL = `BEGIN NOT ATOMIC
  IF IS_USED_LOCK(?) <=> ? AND ABS(${UPTIME_START} - ?) <= ${START_SLACK_S} THEN KILL CONNECTION ?; SELECT 1 AS killed;
  ELSE SELECT 0 AS killed; END IF;
END`;

/** Ends the holder's connection only while it still holds `name` on the server started at `startS`: killed or not. */
async function killHolder(db: Db, o: { name: string; id: string; startS: number; mariadb: boolean }): Promise<boolean> {
  if (o.mariadb) {
    const [r] = await db.rows<{ killed: number }>(MARIADB_KILL, [o.name, o.id, o.startS, o.id]);
    return Number(r?.killed) === 1;
  }
  const [r] = await db.rows<{ ok: number }>(
    `SELECT IS_USED_LOCK(?) <=> ? AND ABS(UNIX_TIMESTAMP() - (SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Uptime') - ?) <= ${START_SLACK_S} AS ok`,
    [o.name, o.id, o.startS],
  );
  if (Number(r?.ok) !== 1) return false;
  await db.run('KILL CONNECTION ?', [Number(o.id)]);
  return true;
}

/**
 * The row's release as one statement on exactly the version read (its fields: parseRowVersion with ROW_VERSIONS);
 * null where the tool's rows are never released.
 */
function rowRelease(t: MysqlLockTable, parts: string[]): { sql: string; values: unknown[] } | null {
  const q = ident(t.table);
  switch (t.kind) {
    case 'liquibase':
      return {
        sql: `UPDATE ${q} SET LOCKED = 0, LOCKGRANTED = NULL, LOCKEDBY = NULL WHERE ID = ? AND LOCKED = 1
              AND COALESCE(LOCKEDBY, '') = ? AND COALESCE(CAST(LOCKGRANTED AS CHAR), '') = ?`,
        values: parts.slice(0, 3),
      };
    case 'shedlock':
      return {
        sql: `UPDATE ${q} SET lock_until = UTC_TIMESTAMP(3) WHERE name = ? AND locked_by = ?
              AND CAST(locked_at AS CHAR) = ? AND CAST(lock_until AS CHAR) = ? AND lock_until > UTC_TIMESTAMP(3)`,
        values: parts.slice(0, 4),
      };
    case 'laravel':
      return {
        sql: 'DELETE FROM ' + q + ' WHERE `key` = ? AND owner <=> ? AND expiration = ?',
        values: [parts[0], parts[1], Number(parts[2])],
      };
    case 'quartz':
      return null;
  }
}

/** A named lock's release by its version: the holder it names ended, only if the version is of this very name. */
async function releaseNamed(db: Db, name: string, version: string, mariadb: boolean): Promise<boolean> {
  const [, id, start] = NAMED_VERSION.exec(version) ?? [];
  if (!id || namedVersion(name, id, Number(start)) !== version) return false; // a version of another name
  return killHolder(db, { name, id, startS: Number(start), mariadb });
}

/** A row's release by its version's fields, in the lock table the name is under (found before): changed or not. */
async function releaseRow(db: Db, table: MysqlLockTable, parts: string[]): Promise<boolean> {
  const statement = rowRelease(table, parts);
  if (!statement) return false;
  return (await db.run(statement.sql, statement.values)) > 0;
}

/**
 * The release of exactly the version seen, checked against the lock's own shape before anything is recorded (one of
 * another shape: VersionShapeError, a usage error); the call returned makes the one conditional mutation: true if it did.
 */
export async function pinnedRelease(
  db: Db,
  o: { source: string; name: string; version: string; mariadb: boolean },
): Promise<() => Promise<boolean>> {
  if (o.name.startsWith('named:')) {
    if (!NAMED_VERSION.test(o.version)) throw new VersionShapeError(o.source, o.version, NAMED_SHAPE);
    return () => releaseNamed(db, o.name.slice('named:'.length), o.version, o.mariadb);
  }
  const table = (await findLockTables(db)).find((t) => o.name.startsWith(`${t.table}/`));
  if (!table) return async () => false; // dropped since it was read: nothing to release
  const shape = ROW_VERSIONS[table.kind];
  const parts = parseRowVersion(o.version, shape);
  if (!parts) throw new VersionShapeError(o.source, o.version, describeRowVersion(shape));
  return () => releaseRow(db, table, parts);
}
