// Lock tables in the source's database, found by their shape over information_schema.COLUMNS (names compared lower-cased:
// Liquibase writes DATABASECHANGELOGLOCK, and table names are case-sensitive on Linux): ShedLock and Liquibase by the
// PostgreSQL store's shapes, Laravel's cache_locks, and Quartz's QRTZ_LOCKS (shown read-only). Each row is released by
// one conditional statement on exactly the row as read (release.ts).
import { TOOL_SHAPES } from '../sql/tool-tables';
import type { Db } from './client';

export type MysqlTableKind = 'shedlock' | 'liquibase' | 'laravel' | 'quartz';

export interface MysqlLockTable {
  table: string;
  kind: MysqlTableKind;
  /** Liquibase's LOCKED column type as created (BIT(1), TINYINT, TINYINT(1): the Liquibase version that made it). */
  lockedType?: string;
  /** Quartz: its scheduler-state table beside it (instances and check-ins), when present. */
  schedulerState?: string;
}

const SHAPES: [MysqlTableKind, string[]][] = [
  ['shedlock', TOOL_SHAPES.shedlock],
  ['liquibase', TOOL_SHAPES.liquibase],
  ['laravel', TOOL_SHAPES.laravel],
  ['quartz', ['sched_name', 'lock_name']],
];

/** Each kind's key columns, in the order pages walk them. */
export const KEY_COLUMNS: Record<MysqlTableKind, string[]> = {
  shedlock: ['name'],
  liquibase: ['ID'],
  laravel: ['key'],
  quartz: ['SCHED_NAME', 'LOCK_NAME'],
};

export async function findLockTables(db: Db): Promise<MysqlLockTable[]> {
  const rows = await db.rows<{ t: string; cols: string; locked: string | null }>(
    `SELECT TABLE_NAME AS t, GROUP_CONCAT(LOWER(COLUMN_NAME) ORDER BY COLUMN_NAME) AS cols,
            MAX(CASE WHEN LOWER(COLUMN_NAME) = 'locked' THEN UPPER(COLUMN_TYPE) END) AS locked
     FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() GROUP BY TABLE_NAME ORDER BY TABLE_NAME`,
  );
  const tables: MysqlLockTable[] = [];
  for (const r of rows) {
    const cols = String(r.cols).split(',');
    const shape = SHAPES.find(([kind, need]) => need.every((c) => cols.includes(c)) && fits(kind, cols));
    if (!shape) continue;
    const state = rows.find(
      (x) => x.t.toLowerCase() === r.t.toLowerCase().replace(/locks$/, 'scheduler_state') && x.t !== r.t,
    );
    tables.push({
      table: r.t,
      kind: shape[0],
      ...(shape[0] === 'liquibase' && r.locked ? { lockedType: r.locked } : {}),
      ...(shape[0] === 'quartz' && state ? { schedulerState: state.t } : {}),
    });
  }
  // in code-point order: the order listings walk them in (the server's collation may order them otherwise)
  return tables.sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : 0));
}

/** Quartz's QRTZ_LOCKS has exactly its two key columns (other Quartz tables have more). */
const fits = (kind: MysqlTableKind, cols: string[]) => kind !== 'quartz' || cols.length === 2;

export const ident = (s: string): string => `\`${s.replace(/`/g, '``')}\``;
