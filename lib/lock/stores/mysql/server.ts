// The server's clock and identity, read with each listing: its time (for health), whether it is MariaDB (which runs
// anonymous blocks: the guarded KILL is one statement), and when it started (a named lock's version pins it, so a
// connection id of a restarted server is never taken for the holder's).
//
// The start is read exactly, in one statement: both servers count Uptime as the statement's start in whole seconds
// less their start time (show_starttime: query_start() - server_start_time), and UNIX_TIMESTAMP() is that same
// statement start, so UNIX_TIMESTAMP() - Uptime is the start time itself, the same on every read, from every tool.
// NOW(3) less an Uptime read by another statement was off by a fraction that flipped it by one second between reads
// (a version …1546… in the console, …1547… in the CLI). Where the status table cannot be read, the start is that
// estimate, and versions still compare it within START_SLACK_S (a release given either form keeps working).
import type { Db } from './client';

export interface ServerClock {
  nowMs: number;
  /** The server's start, unix seconds (UNIX_TIMESTAMP() - Uptime, in one statement). */
  startS: number;
  mariadb: boolean;
  version: string;
}

export const START_SLACK_S = 2;

/** The start as the server counts it: one statement, so the two whole-second values are of one instant. */
const EXACT_START = {
  mariadb: `SELECT UNIX_TIMESTAMP() - VARIABLE_VALUE AS start FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'UPTIME'`,
  mysql: `SELECT UNIX_TIMESTAMP() - VARIABLE_VALUE AS start FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Uptime'`,
};

/** Connections whose status table could not be read: not asked again (the estimate serves). */
const refused = new WeakSet<Db>();

async function exactStart(db: Db, mariadb: boolean): Promise<number | undefined> {
  if (refused.has(db)) return undefined;
  try {
    const [row] = await db.rows<{ start: string | number }>(EXACT_START[mariadb ? 'mariadb' : 'mysql']);
    const start = Number(row?.start);
    return Number.isFinite(start) && start > 0 ? Math.round(start) : undefined;
  } catch (err) {
    // the status table not granted (or absent): the estimate below, and not asked again; any other error: this read
    if (/DENIED|NO_SUCH_TABLE|UNKNOWN_TABLE/.test(String((err as { code?: unknown }).code))) refused.add(db);
    return undefined;
  }
}

export async function serverClock(db: Db): Promise<ServerClock> {
  const [now] = await db.rows<{ now: string; version: string }>(
    'SELECT UNIX_TIMESTAMP(NOW(3)) AS now, VERSION() AS version',
  );
  const nowS = Number(now!.now);
  const mariadb = /mariadb/i.test(now!.version);
  let startS = await exactStart(db, mariadb);
  if (startS === undefined) {
    const [uptime] = await db.rows<{ Value: string }>(`SHOW GLOBAL STATUS LIKE 'Uptime'`);
    startS = Math.round(nowS - Number(uptime?.Value ?? 0));
  }
  return { nowMs: Math.round(nowS * 1000), startS, mariadb, version: now!.version };
}
