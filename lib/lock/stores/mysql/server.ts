// The server's clock and identity, read with each listing: its time (for health), whether it is MariaDB (which runs
// anonymous blocks: the guarded KILL is one statement), and when it started (a named lock's version pins it, so a
// connection id of a restarted server is never taken for the holder's). Uptime is whole seconds: the start read twice
// may differ by one, so versions compare it within START_SLACK_S.
import type { Db } from './client';

export interface ServerClock {
  nowMs: number;
  /** NOW() - Uptime, unix seconds. */
  startS: number;
  mariadb: boolean;
  version: string;
}

export const START_SLACK_S = 2;

export async function serverClock(db: Db): Promise<ServerClock> {
  const [[now], [uptime]] = await Promise.all([
    db.rows<{ now: string; version: string }>('SELECT UNIX_TIMESTAMP(NOW(3)) AS now, VERSION() AS version'),
    db.rows<{ Value: string }>(`SHOW GLOBAL STATUS LIKE 'Uptime'`),
  ]);
  const nowS = Number(now!.now);
  return {
    nowMs: Math.round(nowS * 1000),
    startS: Math.round(nowS - Number(uptime?.Value ?? 0)),
    mariadb: /mariadb/i.test(now!.version),
    version: now!.version,
  };
}
