// Holds on MySQL/MariaDB: a ShedLock row taken with the two statements of ShedLock's MySQL provider (INSERT IGNORE,
// then UPDATE … WHERE lock_until <= UTC_TIMESTAMP(3)), `locked_by` naming the hold (owner, end, reason) and
// `lock_until` its end in UTC, as ShedLock keeps it: ShedLock's tasks skip until then, and the row frees itself.
import { LockOptionsError } from '../../errors';
import type { StoreHolds } from '../../hold-types';
import { sessionHold, shedlockHold, shedlockOwner } from '../../hold-shedlock';
import { openSession } from './client';
import { parseMysqlSource } from './source';

const SHEDLOCK_HOLD = shedlockHold((name) => /^[^/]+\/.+/s.test(name));

/** lock_until as ShedLock writes it: the UTC time, whatever the session's time zone. */
const UNTIL = `TIMESTAMPADD(MICROSECOND, ? * 1000, '1970-01-01 00:00:00')`;

export const mysqlHolds: StoreHolds = {
  formats: [sessionHold('named', 'A MySQL named lock (GET_LOCK)', 'named:'), SHEDLOCK_HOLD],
  async place(spec, o, plan) {
    const [table = '', key = ''] = [
      plan.name.slice(0, plan.name.indexOf('/')),
      plan.name.slice(plan.name.indexOf('/') + 1),
    ];
    const { db, close } = await openSession(parseMysqlSource(spec.url), o.env);
    try {
      const cols = await db.rows<{ c: string; max: number | null }>(
        `SELECT LOWER(column_name) AS c, character_maximum_length AS max FROM information_schema.columns
         WHERE table_schema = DATABASE() AND table_name = ?`,
        [table],
      );
      if (!['name', 'lock_until', 'locked_at', 'locked_by'].every((c) => cols.some((x) => x.c === c)))
        throw new LockOptionsError(`${table} is no ShedLock table (name, lock_until, locked_at, locked_by).`);
      const owner = shedlockOwner(plan, cols.find((x) => x.c === 'locked_by')!.max);
      const t = `\`${table.replace(/`/g, '``')}\``;
      if (
        (await db.run(
          `INSERT IGNORE INTO ${t} (name, lock_until, locked_at, locked_by) VALUES (?, ${UNTIL}, UTC_TIMESTAMP(3), ?)`,
          [key, plan.untilMs, owner],
        )) === 1
      )
        return true;
      const taken = await db.run(
        `UPDATE ${t} SET lock_until = ${UNTIL}, locked_at = UTC_TIMESTAMP(3), locked_by = ? WHERE name = ? AND lock_until <= UTC_TIMESTAMP(3)`,
        [plan.untilMs, owner, key],
      );
      return taken === 1;
    } finally {
      await close();
    }
  },
};
