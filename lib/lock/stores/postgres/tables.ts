// Lock tables, found in the configured schemas by their shape: the unique-index design (`locks(named, pid, ins)` with
// its `released` history), Lockboard's own (`lockboard_locks`), ShedLock, Liquibase's DATABASECHANGELOGLOCK,
// db-scheduler and Laravel's cache_locks. Each row is released by one conditional statement on exactly the version the operator saw.

import { TOOL_SHAPES } from '../sql/tool-tables';

/** What Lockboard needs of a pg Client or Pool: one query at a time. */
export interface Queryable {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

export type TableKind = 'unique-index' | 'lockboard-table' | 'shedlock' | 'liquibase' | 'db-scheduler' | 'laravel';

export interface LockTable {
  schema: string;
  table: string;
  kind: TableKind;
  /** The `released` history beside a unique-index `locks` table, when present. */
  released?: HistoryTable;
  /** The lock table's own columns (lower case). */
  columns: string[];
}

/** A unique-index design's `released` history: its name, its columns and the one that holds the release time. */
interface HistoryTable {
  table: string;
  columns: string[];
  /** `released_at`, or the seed's `released` (a timestamp column named like its table); none: entries have no time. */
  at?: string;
}

/** Each kind of lock table by the columns it must have (the MySQL store recognises the same tools by the same columns). */
const SHAPES: [TableKind, string[]][] = [
  ['lockboard-table', ['name', 'pid', 'backend_us', 'identity', 'token', 'acquired_at']],
  ['unique-index', ['named', 'pid', 'ins']],
  ['shedlock', TOOL_SHAPES.shedlock],
  ['liquibase', TOOL_SHAPES.liquibase],
  ['db-scheduler', ['task_name', 'task_instance', 'picked', 'picked_by', 'last_heartbeat', 'version']],
  ['laravel', TOOL_SHAPES.laravel],
];

export async function findLockTables(db: Queryable, schemas: string[]): Promise<LockTable[]> {
  const { rows } = await db.query<{ table_schema: string; table_name: string; columns: string[] }>(
    `SELECT table_schema, table_name, array_agg(lower(column_name::text)) AS columns
     FROM information_schema.columns WHERE table_schema = ANY($1) GROUP BY table_schema, table_name`,
    [schemas],
  );
  const tables: LockTable[] = [];
  for (const r of rows) {
    const shape = SHAPES.find(([, cols]) => cols.every((c) => r.columns.includes(c)));
    if (!shape) continue;
    const released = rows.find(
      (x) =>
        x.table_schema === r.table_schema &&
        x.table_name === 'released' &&
        ['named', 'problem', 'details'].every((c) => x.columns.includes(c)),
    );
    const history = released && {
      table: released.table_name,
      columns: released.columns,
      at: ['released_at', 'released'].find((c) => released.columns.includes(c)),
    };
    tables.push({
      schema: r.table_schema,
      table: r.table_name,
      kind: shape[0],
      columns: r.columns,
      ...(shape[0] === 'unique-index' && history ? { released: history } : {}),
    });
  }
  return tables;
}

export const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;
export const qualified = (t: LockTable): string => `${ident(t.schema)}.${ident(t.table)}`;
