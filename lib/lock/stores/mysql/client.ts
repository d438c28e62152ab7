// The store's connections: a small mysql2 pool (the console's and the CLI's reads and releases; never a lock holder's
// session) or one dedicated connection (Lockboard's own named lock lives exactly as long as it). Dates are read as
// strings, so a row version round-trips byte for byte; the session time zone is never changed (ShedLock's TIMESTAMP
// columns would read as expired in another zone: facts-mysql.md). A connection that fails under a query is "Cannot
// reach MySQL at …" with a network code (the console's unreachable note, the CLI's exit 3).
import type { Connection, Pool, PoolOptions } from 'mysql2/promise';
import { missingSdk } from '../types';
import { tlsOptions, type MysqlSource } from './source';

export interface Db {
  /** A SELECT's rows (the first result set of a compound statement). */
  rows<R = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<R[]>;
  /** A statement's affected row count. */
  run(sql: string, values?: unknown[]): Promise<number>;
}

const NETWORK = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|PROTOCOL_CONNECTION_LOST)$/;

/** `err` in MySQL's words when the connection failed; `err` itself otherwise (a server's answer keeps its code). */
function mysqlUnreachable(err: unknown, source: string): unknown {
  if (!(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !NETWORK.test(code)) return err;
  return Object.assign(new Error(`Cannot reach MySQL at ${source}: ${err.message || code}`, { cause: err }), {
    code: code === 'PROTOCOL_CONNECTION_LOST' ? 'ECONNRESET' : code,
  });
}

/** MySQL's refusals, with the grant each needs; code 42501 (insufficient privilege): the store is unavailable (3). */
const REFUSED: Record<string, string> = {
  ER_KILL_DENIED_ERROR:
    'releasing a named lock ends its holder’s connection: grant CONNECTION ADMIN (MariaDB 10.5+, MySQL 8) or SUPER',
  ER_SPECIFIC_ACCESS_DENIED_ERROR: 'grant the privilege named',
  ER_TABLEACCESS_DENIED_ERROR:
    'grant SELECT on the lock tables, UPDATE/DELETE on those an operator may clear, and INSERT, SELECT on lockboard_audit',
  ER_DBACCESS_DENIED_ERROR: 'grant this user access to the database',
  ER_ACCESS_DENIED_ERROR: 'check the user and password (in the URL or MYSQL_PWD)',
};

function mysqlRefused(err: unknown, source: string): unknown {
  const code = (err as { code?: unknown })?.code;
  const fix = typeof code === 'string' ? REFUSED[code] : undefined;
  if (!fix) return err;
  return Object.assign(new Error(`MySQL at ${source} refused: ${(err as Error).message}: ${fix}.`, { cause: err }), {
    code: '42501',
  });
}

/** A pool or a connection as a Db, its failures in MySQL's words. */
export function asDb(conn: Pick<Pool | Connection, 'query'>, source: string): Db {
  const send = async (sql: string, values?: unknown[]) => {
    try {
      return (await conn.query(sql, values))[0] as unknown;
    } catch (err) {
      throw mysqlRefused(mysqlUnreachable(err, source), source);
    }
  };
  return {
    async rows<R>(sql: string, values?: unknown[]) {
      const r = await send(sql, values);
      if (!Array.isArray(r)) return [] as R[];
      return (Array.isArray(r[0]) ? r[0] : r) as R[];
    },
    async run(sql: string, values?: unknown[]) {
      const r = (await send(sql, values)) as { affectedRows?: number };
      return r.affectedRows ?? 0;
    },
  };
}

async function mysqlModule(): Promise<typeof import('mysql2/promise')> {
  try {
    const m = (await import('mysql2/promise')) as unknown as { default?: typeof import('mysql2/promise') };
    return m.default ?? (m as unknown as typeof import('mysql2/promise'));
  } catch {
    throw missingSdk('mysql:// sources', 'mysql2');
  }
}

function settings(s: MysqlSource, env: Record<string, string | undefined>): PoolOptions {
  const ssl = tlsOptions(s.ssl);
  return {
    host: s.host,
    port: s.port,
    user: s.user,
    database: s.database,
    password: s.password ?? env.MYSQL_PWD,
    connectTimeout: 5_000,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    multipleStatements: false,
    connectAttributes: { program_name: 'lockboard' },
    ...(ssl ? { ssl } : {}),
  };
}

/** The store's pool: two connections for the console, one for a one-shot CLI command. */
export async function openPool(s: MysqlSource, env: Record<string, string | undefined>, size: number) {
  const mysql = await mysqlModule();
  const pool = mysql.createPool({ ...settings(s, env), connectionLimit: size, maxIdle: size, enableKeepAlive: true });
  pool.on('connection', (c) => c.on('error', () => {}));
  return { db: asDb(pool, s.display), close: () => pool.end().catch(() => undefined) };
}

/** One dedicated session (Lockboard's own lock): reached now, or "Cannot reach …". */
export async function openSession(s: MysqlSource, env: Record<string, string | undefined>) {
  const mysql = await mysqlModule();
  let conn: Connection;
  try {
    conn = await mysql.createConnection(settings(s, env));
  } catch (err) {
    const e = mysqlRefused(mysqlUnreachable(err, s.display), s.display);
    throw e === err
      ? Object.assign(new Error(`Cannot reach ${s.display}: ${(err as Error).message}`), { code: 'ECONNREFUSED' })
      : e;
  }
  conn.on('error', () => {});
  return { db: asDb(conn, s.display), close: () => conn.end().catch(() => undefined), destroy: () => conn.destroy() };
}
