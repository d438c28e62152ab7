// The one conditional mutation per lock (facts-mysql.md): a named lock's holder connection killed only while it still
// holds that lock and the server is the one that was read (MariaDB: one anonymous block; MySQL 8 has none, so a read
// and a KILL, the narrowest form it allows); a table row changed only if it is exactly the row as read, the way its
// tool itself releases (Liquibase's row kept with LOCKED = 0, ShedLock's lock_until set to now, Laravel's row deleted).
import type { Db } from './client';
import { START_SLACK_S } from './server';
import { findLockTables, ident, type MysqlLockTable } from './tables';
import { NAMED_VERSION, namedVersion } from './version';

const UPTIME_START = `UNIX_TIMESTAMP() - (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'UPTIME')`;

const MARIADB_KILL = `BEGIN NOT ATOMIC
  IF IS_USED_LOCK(?) <=> ? AND ABS(${UPTIME_START} - ?) <= ${START_SLACK_S} THEN KILL CONNECTION ?; SELECT 1 AS killed;
  ELSE SELECT 0 AS killed; END IF;
END`;

/** Ends the holder's connection only while it still holds `name` on the server started at `startS`: killed or not. */
export async function killHolder(
  db: Db,
  o: { name: string; id: string; startS: number; mariadb: boolean },
): Promise<boolean> {
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

/** The row's release as one statement on exactly the version read; null where the tool's rows are never released. */
export function rowRelease(t: MysqlLockTable, version: string): { sql: string; values: unknown[] } | null {
  const q = ident(t.table);
  const parts = version.split('|');
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
export async function releaseNamed(db: Db, name: string, version: string, mariadb: boolean): Promise<boolean> {
  const [, id, start] = NAMED_VERSION.exec(version) ?? [];
  if (!id || namedVersion(name, id, Number(start)) !== version) return false; // a version of another name
  return killHolder(db, { name, id, startS: Number(start), mariadb });
}

/** A row's release by its version, in the lock table the name is under: changed or not. */
export async function releaseRow(db: Db, name: string, version: string): Promise<boolean> {
  const table = (await findLockTables(db)).find((t) => name.startsWith(`${t.table}/`));
  const statement = table && rowRelease(table, version);
  if (!statement) return false;
  return (await db.run(statement.sql, statement.values)) > 0;
}
