// A lock table's rows as the console shows them, one keyset page at a time (table-pages.ts): each shape's columns
// read as its library writes them, times on the server, the holder's backend checked where the shape records it.
import { rowVersion } from '../sql/row-version';
import type { Queryable } from './tables';
import { pageOf, type RowPage } from './table-pages';
import type { LockTable } from './tables';

/** A row as the console shows it. Times are server times; `alive` from the holder's connection where known. */
export interface TableRow {
  key: string;
  owner?: string;
  /** The holder's backend pid, where the shape records it. */
  pid?: string;
  acquiredAt?: Date;
  /** Server time the lock stops holding (ShedLock's lock_until). */
  until?: Date;
  /** false: the holder's backend is gone (or its heartbeat is dead). */
  alive?: boolean;
  held: boolean;
  version: string;
  details: [string, string][];
}

interface RowsRead {
  rows: TableRow[];
  /** The key to read the next page after; absent on the table's last page. */
  next?: unknown[];
}

const ALIVE_SQL = (pid: string, since: string) =>
  `EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = ${pid} AND ${since})`;

/** One page of a lock table's rows (or the one row named), and the key to read the next page after. */
export async function readRows(db: Queryable, t: LockTable, page: RowPage = {}): Promise<RowsRead> {
  const p = pageOf(t, page);
  const select = async <R>(columns: string): Promise<(R & { page_key: unknown[] })[]> =>
    (
      await db.query<R & { page_key: unknown[] }>(
        `SELECT ${columns}, ${p.key} AS page_key FROM ${p.from} ORDER BY ${p.order}`,
        p.params,
      )
    ).rows;
  const rows = await kindRows(select, t);
  const last = rows.length === p.limit ? rows[rows.length - 1]?.pageKey : undefined;
  return { rows, ...(last ? { next: last } : {}) };
}

type Select = <R>(columns: string) => Promise<(R & { page_key: unknown[] })[]>;

type KindRows = (select: Select) => Promise<(TableRow & { pageKey: unknown[] })[]>;

/** Each table kind's columns, read as that kind's tool writes them. */
async function kindRows(select: Select, t: LockTable): Promise<(TableRow & { pageKey: unknown[] })[]> {
  return READERS[t.kind](select);
}

const lockboardRows: KindRows = async (select) => {
  const rows = await select<Record<string, string | Date | null>>(
    `name, pid::text, backend_us, identity, host, purpose, token::text, acquired_at,
            ${ALIVE_SQL('t.pid', `(extract(epoch from a.backend_start) * 1000000)::bigint::text = t.backend_us`)} AS alive
    `,
  );
  return rows.map((r) => ({
    pageKey: r.page_key,
    key: String(r.name),
    owner: String(r.identity),
    pid: String(r.pid),
    acquiredAt: r.acquired_at as Date,
    alive: Boolean(r.alive),
    held: true,
    version: rowVersion([r.name, r.token]),
    details: [
      ['Identity', String(r.identity)],
      ['Host', String(r.host ?? '')],
      ['Backend pid', String(r.pid)],
      ['Purpose', String(r.purpose ?? '')],
      ['Fencing token', String(r.token)],
    ].filter(([, v]) => v) as [string, string][],
  }));
};

const uniqueIndexRows: KindRows = async (select) => {
  // alive only if the pid exists AND that backend started before the row: a reused pid is a new backend
  const rows = await select<Record<string, string | Date | null>>(
    `named::text, pid::text, ins, ins::text AS ins_text, ${ALIVE_SQL('t.pid', 'a.backend_start <= t.ins')} AS alive`,
  );
  return rows.map((r) => ({
    pageKey: r.page_key,
    key: String(r.named),
    owner: `pid ${r.pid}`,
    pid: String(r.pid),
    acquiredAt: r.ins as Date,
    alive: Boolean(r.alive),
    held: true,
    version: rowVersion([r.named, r.pid, r.ins_text]),
    details: [
      ['Holder pid', String(r.pid)],
      ['Inserted', String(r.ins_text)],
    ],
  }));
};

const shedlockRows: KindRows = async (select) => {
  const rows = await select<Record<string, string | Date | null | boolean>>(
    `name, locked_by, locked_at, lock_until, locked_at::text AS at_text, lock_until::text AS until_text,
            lock_until > timezone('utc', now()) AS held`,
  );
  return rows.map((r) => ({
    pageKey: r.page_key,
    key: String(r.name),
    owner: String(r.locked_by),
    acquiredAt: r.locked_at as Date,
    until: r.lock_until as Date,
    held: Boolean(r.held),
    version: rowVersion([r.name, r.locked_by, r.at_text, r.until_text]),
    details: [
      ['Locked by', String(r.locked_by)],
      ['Locked at (UTC)', String(r.at_text)],
      ['Lock until (UTC)', String(r.until_text)],
    ],
  }));
};

const liquibaseRows: KindRows = async (select) => {
  const rows = await select<Record<string, string | Date | null | boolean>>(
    `id::text, locked, lockgranted, lockgranted::text AS granted_text, lockedby`,
  );
  return rows.map((r) => ({
    pageKey: r.page_key,
    key: `changelog-lock-${r.id}`,
    owner: r.lockedby ? String(r.lockedby) : undefined,
    acquiredAt: (r.lockgranted as Date | null) ?? undefined,
    held: Boolean(r.locked),
    version: rowVersion([r.id, r.lockedby, r.granted_text]),
    details: [
      ['Locked by', String(r.lockedby ?? '—')],
      ['Granted', String(r.granted_text ?? '—')],
    ],
  }));
};

const dbSchedulerRows: KindRows = async (select) => {
  const rows = await select<Record<string, string | Date | null | boolean>>(
    `task_name, task_instance, picked_by, last_heartbeat, version::text,
            last_heartbeat > now() - interval '30 minutes' AS alive`,
  );
  return rows.map((r) => ({
    pageKey: r.page_key,
    key: `${r.task_name}/${r.task_instance}`,
    owner: String(r.picked_by ?? ''),
    acquiredAt: (r.last_heartbeat as Date | null) ?? undefined,
    alive: Boolean(r.alive),
    held: true,
    version: rowVersion([r.task_name, r.task_instance, r.version]),
    details: [
      ['Picked by', String(r.picked_by ?? '')],
      ['Last heartbeat', String((r.last_heartbeat as Date | null)?.toISOString() ?? '—')],
      ['Version', String(r.version)],
    ],
  }));
};

const laravelRows: KindRows = async (select) => {
  // the expiration is unix seconds on the app's clock, compared with the database's
  const rows = await select<Record<string, string | null | boolean>>(
    `"key"::text AS k, owner, expiration::text AS exp, expiration > extract(epoch from now()) AS held`,
  );
  return rows.map((r) => ({
    pageKey: r.page_key,
    key: String(r.k),
    owner: String(r.owner ?? ''),
    until: new Date(Number(r.exp) * 1000),
    held: Boolean(r.held),
    version: rowVersion([r.k, r.owner, r.exp]),
    details: [
      ['Owner', String(r.owner ?? '—')],
      ['Expiration', `${new Date(Number(r.exp) * 1000).toISOString()} (the app’s clock: unix ${r.exp})`],
    ],
  }));
};

const READERS: Record<LockTable['kind'], KindRows> = {
  'lockboard-table': lockboardRows,
  'unique-index': uniqueIndexRows,
  shedlock: shedlockRows,
  liquibase: liquibaseRows,
  'db-scheduler': dbSchedulerRows,
  laravel: laravelRows,
};
