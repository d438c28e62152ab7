// A lock table's rows as the console shows them, one keyset page at a time (never OFFSET: the 100 000th ShedLock row
// costs what the first does): each shape read as its tool writes it, its times as the server holds them (strings, so a
// row version round-trips byte for byte), and whether it holds by the tool's own rule on the server's clock.
import { rowVersion } from '../sql/row-version';
import type { Db } from './client';
import { ident, KEY_COLUMNS, type MysqlLockTable, type MysqlTableKind } from './tables';

const PAGE_ROWS = 5_000;

export interface TableRow {
  key: string;
  owner?: string;
  /** Unix ms, on the server's clock as the tool wrote it. */
  acquiredAtMs?: number;
  untilMs?: number;
  held: boolean;
  version: string;
  details: [string, string][];
}

interface RowPage {
  after?: unknown[];
  /** Only the row shown under this name (an inspect, a release). */
  name?: string;
}

/** The name a row is shown under (after `<table>/`), in SQL. */
const NAME_SQL: Record<MysqlTableKind, string> = {
  shedlock: 'CAST(name AS CHAR)',
  liquibase: `CONCAT('changelog-lock-', ID)`,
  laravel: 'CAST(`key` AS CHAR)',
  quartz: `CONCAT(SCHED_NAME, '/', LOCK_NAME)`,
};

/** Columns of each kind, read as text; `held` by the tool's own rule; times as unix seconds on the server. */
const COLUMNS: Record<MysqlTableKind, string> = {
  shedlock: `name AS k, locked_by AS owner, CAST(locked_at AS CHAR) AS a, CAST(lock_until AS CHAR) AS b,
    lock_until > UTC_TIMESTAMP(3) AS held`,
  liquibase: `ID AS k, LOCKEDBY AS owner, CAST(LOCKGRANTED AS CHAR) AS a, NULL AS b, LOCKED = 1 AS held,
    UNIX_TIMESTAMP(LOCKGRANTED) AS at_s`,
  laravel: 'CAST(`key` AS CHAR) AS k, owner, NULL AS a, expiration AS b, expiration > UNIX_TIMESTAMP() AS held',
  quartz: `CONCAT(SCHED_NAME, '/', LOCK_NAME) AS k, NULL AS owner, SCHED_NAME AS a, LOCK_NAME AS b, 1 AS held`,
};

type Raw = { k: string; owner: string | null; a: string | null; b: string | null; held: number; at_s?: string | null };

/** One page of a lock table's rows (or the one row named), and the key to read the next page after. */
export async function readRows(db: Db, t: MysqlLockTable, page: RowPage = {}) {
  const keys = KEY_COLUMNS[t.kind].map(ident);
  const where: string[] = [];
  const values: unknown[] = [];
  if (page.after) {
    where.push(`(${keys.join(', ')}) > (${page.after.map(() => '?').join(', ')})`);
    values.push(...page.after);
  }
  if (page.name !== undefined) {
    where.push(`${NAME_SQL[t.kind]} = ?`);
    values.push(page.name);
  }
  const rows = await db.rows<Raw & { pk: unknown }>(
    `SELECT ${COLUMNS[t.kind]}, JSON_ARRAY(${keys.join(', ')}) AS pk FROM ${ident(t.table)}
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${keys.join(', ')} LIMIT ${PAGE_ROWS}`,
    values,
  );
  const last = rows.length === PAGE_ROWS ? keysetOf(rows[rows.length - 1]!.pk) : undefined;
  return { rows: rows.map((r) => rowOf(t.kind, r)), ...(last ? { next: last } : {}) };
}

/**
 * The last row's key for the next page: mysql2 hands a JSON column over parsed where the server types it JSON (MariaDB's
 * JSON_ARRAY does) and as text elsewhere.
 */
function keysetOf(pk: unknown): unknown[] {
  const key: unknown = typeof pk === 'string' ? JSON.parse(pk) : pk;
  if (!Array.isArray(key)) throw new Error(`a lock table's keyset came back as ${typeof key}, not an array`);
  return key;
}

/** A server time string written in UTC (ShedLock's usingDbTime) as unix ms. */
const utcMs = (s: string | null) => (s ? Date.parse(`${s.replace(' ', 'T')}Z`) : undefined);

function rowOf(kind: MysqlTableKind, r: Raw): TableRow {
  const held = Number(r.held) === 1;
  switch (kind) {
    case 'shedlock':
      return {
        key: r.k,
        owner: r.owner ?? '',
        acquiredAtMs: utcMs(r.a),
        untilMs: utcMs(r.b),
        held,
        version: rowVersion([r.k, r.owner, r.a, r.b]),
        details: [
          ['Locked by', String(r.owner)],
          ['Locked at (UTC, writer’s zone assumed)', String(r.a)],
          ['Lock until (UTC, writer’s zone assumed)', String(r.b)],
        ],
      };
    case 'liquibase':
      return {
        key: `changelog-lock-${r.k}`,
        ...(r.owner ? { owner: r.owner } : {}),
        ...(r.at_s ? { acquiredAtMs: Math.round(Number(r.at_s) * 1000) } : {}),
        held,
        version: rowVersion([r.k, r.owner, r.a]),
        details: [
          ['Locked by', r.owner ?? '—'],
          ['Granted (server time)', r.a ?? '—'],
        ],
      };
    case 'laravel':
      return {
        key: r.k,
        owner: r.owner ?? '',
        untilMs: Number(r.b) * 1000,
        held,
        version: rowVersion([r.k, r.owner, r.b]),
        details: [
          ['Owner', r.owner ?? '—'],
          ['Expiration', `${new Date(Number(r.b) * 1000).toISOString()} (the app’s clock: unix ${r.b})`],
        ],
      };
    case 'quartz':
      return {
        key: r.k,
        held: true,
        version: rowVersion([r.a, r.b]),
        details: [
          ['Scheduler', String(r.a)],
          ['Lock', String(r.b)],
        ],
      };
  }
}
