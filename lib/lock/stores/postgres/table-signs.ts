// What a PostgreSQL lock table's row says of its holder (docs/verdict.md), from the same page read that lists it: the
// seed's unique-index table and Lockboard's own table record the holder's backend pid, checked in pg_stat_activity
// within that read (absent, or a newer backend on the same pid → gone; present → alive); ShedLock and Liquibase by
// their own rules (Laravel's expiration too); db-scheduler by its heartbeat rule (dead after 6 missed 5-minute
// heartbeats: expired, not gone).
import { liquibaseSign, untilSign } from '../../verdict/row-rules';
import { RULE_IS_NOT_ABSENCE } from '../../verdict/sign';
import type { HolderSign } from '../../verdict/verdict';
import type { TableRow } from './table-rows';
import type { LockTable } from './tables';

function backendSign(r: TableRow, from: string, at: string): HolderSign {
  const pid = `pid ${r.pid ?? '?'}`;
  const since = r.acquiredAt ? ` (the row was written ${r.acquiredAt.toISOString()})` : '';
  return r.alive
    ? {
        points: 'alive',
        says: `PostgreSQL ${pid}, which wrote the row, is still connected`,
        fact: `${pid} in pg_stat_activity, its backend started before the row${since}`,
        from: `pg_stat_activity, ${from}`,
        at,
      }
    : {
        points: 'gone',
        basis: 'absence',
        says: `PostgreSQL ${pid}, which wrote the row, is no longer connected (or the pid now belongs to a newer backend)`,
        fact: `${pid} absent from pg_stat_activity, or started after the row${since}`,
        from: `pg_stat_activity, ${from}`,
        at,
      };
}

function heartbeatSign(r: TableRow, from: string, at: string): HolderSign {
  const beat = r.acquiredAt ? r.acquiredAt.toISOString() : 'never';
  const fact = `last_heartbeat ${beat}, picked_by ${r.owner ?? '?'}`;
  return r.alive
    ? { points: 'alive', says: `its executor ${r.owner ?? '?'} sent a heartbeat at ${beat}`, fact, from, at }
    : {
        points: 'unknown',
        basis: 'rule',
        says: `its executor ${r.owner ?? '?'} sent no heartbeat for 30 min (last ${beat}): db-scheduler’s own rule calls the execution dead; ${RULE_IS_NOT_ABSENCE}`,
        fact,
        from,
        at,
      };
}

/** The sign of a lock table's row, at `nowMs` on the server's clock. */
export function tableSign(t: LockTable, r: TableRow, nowMs: number): HolderSign {
  const at = new Date(nowMs).toISOString();
  const from = `${t.schema}.${t.table} (row ${r.key})`;
  const read = { from, nowMs, ...(r.owner ? { owner: r.owner } : {}) };
  switch (t.kind) {
    case 'lockboard-table':
    case 'unique-index':
      return backendSign(r, from, at);
    case 'db-scheduler':
      return heartbeatSign(r, from, at);
    case 'shedlock':
      return untilSign({ ...read, tool: 'ShedLock', column: 'lock_until', untilMs: r.until?.getTime() ?? nowMs });
    case 'laravel':
      return untilSign({ ...read, tool: 'Laravel', column: 'expiration', untilMs: r.until?.getTime() ?? nowMs });
    case 'liquibase':
      return liquibaseSign({ ...read, ...(r.acquiredAt ? { grantedMs: r.acquiredAt.getTime() } : {}) });
  }
}
