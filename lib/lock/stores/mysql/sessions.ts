// The server's connections as the named-lock view shows them: the process list (user, host, Command, Time, State,
// statement; MariaDB's TIME_MS), whether each is inside an InnoDB transaction, and its program from its connect
// attributes where performance_schema has them. Without PROCESS, other users' connections are hidden: such a holder is
// shown as hidden, with the grant that shows it.
import type { Db } from './client';

export interface Connection {
  id: string;
  user: string;
  host: string;
  db: string | null;
  command: string;
  /** Seconds in the current command (the process list's Time). */
  time: number;
  /** The same to the millisecond where the server has it (MariaDB's TIME_MS). */
  timeMs: number;
  state: string | null;
  /** The current statement as the server shows it (first 1000 characters); null when none. */
  info: string | null;
  inTransaction?: boolean;
  /** The client's program_name (or driver) from its connect attributes, where performance_schema has them. */
  program?: string;
}

/** Each connection's program_name (else its driver's _client_name); none without performance_schema. */
async function programs(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .rows<{ id: string; n: string; v: string }>(
      `SELECT CAST(PROCESSLIST_ID AS CHAR) AS id, ATTR_NAME AS n, ATTR_VALUE AS v FROM performance_schema.session_connect_attrs
       WHERE ATTR_NAME IN ('program_name', '_client_name') ORDER BY ATTR_NAME DESC`,
    )
    .catch(() => []);
  const out = new Map<string, string>();
  for (const r of rows) if (!out.has(r.id)) out.set(r.id, r.v); // program_name sorts first
  return out;
}

/** The connections inside an InnoDB transaction (INNODB_TRX needs PROCESS: without it, unknown). */
async function inTransaction(db: Db): Promise<Set<string> | undefined> {
  const rows = await db
    .rows<{ id: string }>('SELECT CAST(trx_mysql_thread_id AS CHAR) AS id FROM information_schema.INNODB_TRX')
    .catch(() => undefined);
  return rows && new Set(rows.map((r) => r.id));
}

export async function processList(db: Db, mariadb: boolean): Promise<Connection[]> {
  const ms = mariadb ? 'TIME_MS' : 'TIME * 1000';
  const [rows, program, trx] = await Promise.all([
    db.rows<Connection>(
      `SELECT CAST(ID AS CHAR) AS id, USER AS user, HOST AS host, DB AS db, COMMAND AS command, TIME AS time,
              ${ms} AS timeMs, STATE AS state, LEFT(INFO, 1000) AS info
       FROM information_schema.PROCESSLIST`,
    ),
    programs(db),
    inTransaction(db),
  ]);
  return rows.map((r) => ({
    ...r,
    time: Number(r.time),
    timeMs: Number(r.timeMs),
    ...(trx ? { inTransaction: trx.has(r.id) } : {}),
    ...(program.has(r.id) ? { program: program.get(r.id)! } : {}),
  }));
}

/** Another user's connection, which the process list hides without the PROCESS privilege. */
export const hidden = (id: string): Connection => ({
  id,
  user: '?',
  host: '?',
  db: null,
  command: 'unknown (grant PROCESS to see other users’ connections)',
  time: 0,
  timeMs: 0,
  state: null,
  info: null,
});
