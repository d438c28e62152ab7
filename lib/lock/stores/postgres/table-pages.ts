// Lock tables read in keyset pages: rows in the order of the table's own key, PAGE_ROWS at a time after the last key
// read (never OFFSET, so the millionth row costs what the first does), each row within the read limit (the 64 KiB of
// GCS bodies, measured by the server as text: a row someone filled with 64 MB is never sent). A listing's page token
// names the table and the key it stopped at.
import { MAX_BODY_BYTES } from '../../objects/formats/types';
import { ident, qualified, type LockTable, type TableKind } from './tables';

export const PAGE_ROWS = 5_000;

/** Each shape's key, in the order pages walk it. */
const KEY_COLUMNS: Record<TableKind, string[]> = {
  'lockboard-table': ['name'],
  'unique-index': ['named'],
  shedlock: ['name'],
  liquibase: ['id'],
  'db-scheduler': ['task_name', 'task_instance'],
  laravel: ['key'],
};

/** The name a row is shown under (after `<schema>.<table>/`), in SQL over the row `b`. */
const NAME_SQL: Record<TableKind, string> = {
  'lockboard-table': 'b.name::text',
  'unique-index': 'b.named::text',
  shedlock: 'b.name::text',
  liquibase: `'changelog-lock-' || b.id::text`,
  'db-scheduler': `b.task_name::text || '/' || b.task_instance::text`,
  laravel: 'b."key"::text',
};

export interface RowPage {
  /** The key the previous page ended at. */
  after?: unknown[];
  /** Only the row shown under this name (an inspect, a release). */
  name?: string;
}

/** The FROM clause (aliased `t`) of one page, its parameters, the key as JSON, and the order to read it in. */
export function pageOf(t: LockTable, page: RowPage) {
  const cols = KEY_COLUMNS[t.kind].map(ident);
  const where = [`octet_length(b::text) <= ${MAX_BODY_BYTES}`];
  const params: unknown[] = [];
  if (page.after) {
    params.push(...page.after);
    where.push(`(${cols.map((c) => `b.${c}`).join(', ')}) > (${page.after.map((_, i) => `$${i + 1}`).join(', ')})`);
  }
  if (page.name !== undefined) {
    params.push(page.name);
    where.push(`${NAME_SQL[t.kind]} = $${params.length}`);
  }
  if (t.kind === 'db-scheduler') where.push('b.picked');
  const inner = cols.map((c) => `b.${c}`).join(', ');
  const order = cols.map((c) => `t.${c}`).join(', ');
  return {
    from: `(SELECT * FROM ${qualified(t)} b WHERE ${where.join(' AND ')} ORDER BY ${inner} LIMIT ${PAGE_ROWS}) t`,
    params,
    key: `json_build_array(${order})`,
    order,
    limit: PAGE_ROWS,
  };
}

export const tableName = (t: LockTable): string => `${t.schema}.${t.table}`;
