// Quartz's scheduler instances beside its QRTZ_LOCKS rows: each instance's last check-in (the app's clock, ms since
// the epoch) and interval, shown with every lock row (Quartz's own judgement of a dead instance is its check-in age).
import type { Db } from './client';
import { ident, type MysqlLockTable } from './tables';

export async function quartzCheckIns(db: Db, t: MysqlLockTable): Promise<[string, string][] | undefined> {
  if (!t.schedulerState) return undefined;
  const rows = await db
    .rows<{ i: string; c: string; n: string }>(
      `SELECT INSTANCE_NAME AS i, CAST(LAST_CHECKIN_TIME AS CHAR) AS c, CAST(CHECKIN_INTERVAL AS CHAR) AS n
       FROM ${ident(t.schedulerState)} ORDER BY INSTANCE_NAME LIMIT 20`,
    )
    .catch(() => []);
  return rows.map((r) => [
    `Instance ${r.i}`,
    `last check-in ${new Date(Number(r.c)).toISOString()} (every ${Number(r.n) / 1000} s, app clock)`,
  ]);
}
