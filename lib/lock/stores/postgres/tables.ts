// Lock tables, found in the configured schemas by their shape: the unique-index design (`locks(named, pid, ins)` with
// its `released` history), Lockboard's own (`lockboard_locks`), ShedLock, Liquibase's DATABASECHANGELOGLOCK and
// db-scheduler. Each row is released by one conditional statement on exactly the version the operator saw.
import { MAX_BODY_BYTES } from '../../objects/formats/types';
import type { Queryable } from './advisory';

export type TableKind = 'unique-index' | 'lockboard-table' | 'shedlock' | 'liquibase' | 'db-scheduler';

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
export interface HistoryTable {
  table: string;
  columns: string[];
  /** `released_at`, or the seed's `released` (a timestamp column named like its table); none: entries have no time. */
  at?: string;
}

const SHAPES: [TableKind, string[]][] = [
  ['lockboard-table', ['name', 'pid', 'backend_us', 'identity', 'token', 'acquired_at']],
  ['unique-index', ['named', 'pid', 'ins']],
  ['shedlock', ['name', 'lock_until', 'locked_at', 'locked_by']],
  ['liquibase', ['id', 'locked', 'lockgranted', 'lockedby']],
  ['db-scheduler', ['task_name', 'task_instance', 'picked', 'picked_by', 'last_heartbeat', 'version']],
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

/** A row as the console shows it. Times are server times; `alive` from the holder's connection where known. */
export interface TableRow {
  key: string;
  owner?: string;
  acquiredAt?: Date;
  /** Server time the lock stops holding (ShedLock's lock_until). */
  until?: Date;
  /** false: the holder's backend is gone (or its heartbeat is dead). */
  alive?: boolean;
  held: boolean;
  version: string;
  details: [string, string][];
}

const ALIVE_SQL = (pid: string, since: string) =>
  `EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = ${pid} AND ${since})`;

/**
 * A lock table's rows within the read limit (the 64 KiB GCS bodies have): measured by the server as text, so a row
 * someone filled with 64 MB is never sent, whatever its compression.
 */
const bounded = (q: string): string => `(SELECT * FROM ${q} b WHERE octet_length(b::text) <= ${MAX_BODY_BYTES}) t`;

export async function readRows(db: Queryable, t: LockTable): Promise<TableRow[]> {
  const q = bounded(qualified(t));
  switch (t.kind) {
    case 'lockboard-table': {
      const { rows } = await db.query<Record<string, string | Date | null>>(
        `SELECT name, pid::text, backend_us, identity, host, purpose, token::text, acquired_at,
                ${ALIVE_SQL('t.pid', `(extract(epoch from a.backend_start) * 1000000)::bigint::text = t.backend_us`)} AS alive
         FROM ${q}`,
      );
      return rows.map((r) => ({
        key: String(r.name),
        owner: String(r.identity),
        acquiredAt: r.acquired_at as Date,
        alive: Boolean(r.alive),
        held: true,
        version: `${r.name}|${r.token}`,
        details: [
          ['Identity', String(r.identity)],
          ['Host', String(r.host ?? '')],
          ['Backend pid', String(r.pid)],
          ['Purpose', String(r.purpose ?? '')],
          ['Fencing token', String(r.token)],
        ].filter(([, v]) => v) as [string, string][],
      }));
    }
    case 'unique-index': {
      // alive only if the pid exists AND that backend started before the row: a reused pid is a new backend
      const { rows } = await db.query<Record<string, string | Date | null>>(
        `SELECT named::text, pid::text, ins, ins::text AS ins_text, ${ALIVE_SQL('t.pid', 'a.backend_start <= t.ins')} AS alive FROM ${q}`,
      );
      return rows.map((r) => ({
        key: String(r.named),
        owner: `pid ${r.pid}`,
        acquiredAt: r.ins as Date,
        alive: Boolean(r.alive),
        held: true,
        version: `${r.named}|${r.pid}|${r.ins_text}`,
        details: [
          ['Holder pid', String(r.pid)],
          ['Inserted', String(r.ins_text)],
        ],
      }));
    }
    case 'shedlock': {
      const { rows } = await db.query<Record<string, string | Date | null | boolean>>(
        `SELECT name, locked_by, locked_at, lock_until, locked_at::text AS at_text, lock_until::text AS until_text,
                lock_until > timezone('utc', now()) AS held FROM ${q}`,
      );
      return rows.map((r) => ({
        key: String(r.name),
        owner: String(r.locked_by),
        acquiredAt: r.locked_at as Date,
        until: r.lock_until as Date,
        held: Boolean(r.held),
        version: `${r.name}|${r.locked_by}|${r.at_text}|${r.until_text}`,
        details: [
          ['Locked by', String(r.locked_by)],
          ['Locked at (UTC)', String(r.at_text)],
          ['Lock until (UTC)', String(r.until_text)],
        ],
      }));
    }
    case 'liquibase': {
      const { rows } = await db.query<Record<string, string | Date | null | boolean>>(
        `SELECT id::text, locked, lockgranted, lockgranted::text AS granted_text, lockedby FROM ${q}`,
      );
      return rows.map((r) => ({
        key: `changelog-lock-${r.id}`,
        owner: r.lockedby ? String(r.lockedby) : undefined,
        acquiredAt: (r.lockgranted as Date | null) ?? undefined,
        held: Boolean(r.locked),
        version: `${r.id}|${r.lockedby ?? ''}|${r.granted_text ?? ''}`,
        details: [
          ['Locked by', String(r.lockedby ?? '—')],
          ['Granted', String(r.granted_text ?? '—')],
        ],
      }));
    }
    case 'db-scheduler': {
      const { rows } = await db.query<Record<string, string | Date | null | boolean>>(
        `SELECT task_name, task_instance, picked_by, last_heartbeat, version::text,
                last_heartbeat > now() - interval '30 minutes' AS alive FROM ${q} WHERE picked`,
      );
      return rows.map((r) => ({
        key: `${r.task_name}/${r.task_instance}`,
        owner: String(r.picked_by ?? ''),
        acquiredAt: (r.last_heartbeat as Date | null) ?? undefined,
        alive: Boolean(r.alive),
        held: true,
        version: `${r.task_name}|${r.task_instance}|${r.version}`,
        details: [
          ['Picked by', String(r.picked_by ?? '')],
          ['Last heartbeat', String((r.last_heartbeat as Date | null)?.toISOString() ?? '—')],
          ['Version', String(r.version)],
        ],
      }));
    }
  }
}
