// The verdict on a lock table's row by its tool's own rule, shared by the SQL stores (PostgreSQL, MySQL/MariaDB):
// ShedLock and Laravel hold until the row's own end and write no heartbeat before it; Liquibase's changelog lock has no
// heartbeat and no end at all. Times are the store's clock; `from` names the table and row read.
import { RULE_IS_NOT_ABSENCE } from './sign';
import type { HolderSign } from './verdict';

export const ago = (ms: number) =>
  ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(0, Math.round(ms / 1000))} s`;

interface RowRead {
  /** Where the row was read: `<table> (row <key>)`. */
  from: string;
  owner?: string;
  nowMs: number;
}

/** Liquibase's LOCKED = 1: no heartbeat, so unknown, naming what would settle it (LOCKEDBY's host and process). */
export function liquibaseSign(r: RowRead & { grantedMs?: number }): HolderSign {
  const granted = r.grantedMs === undefined ? 'at an unknown time' : `${ago(r.nowMs - r.grantedMs)} ago`;
  return {
    points: 'unknown',
    says: `Liquibase has no heartbeat: the changelog lock was granted ${granted}${r.owner ? ` by ${r.owner}` : ''}; whether that LOCKEDBY host still runs its Liquibase process would settle it`,
    fact: `LOCKED = 1, LOCKGRANTED ${r.grantedMs === undefined ? 'null' : new Date(r.grantedMs).toISOString()}, LOCKEDBY ${r.owner ?? 'null'}`,
    from: r.from,
    at: new Date(r.nowMs).toISOString(),
  };
}

/** ShedLock's lock_until, Laravel's expiration: passed → expired by the tool's rule (unknown); ahead → unknown (no heartbeat). */
export function untilSign(r: RowRead & { tool: string; column: string; untilMs: number }): HolderSign {
  const fact = `${r.column} ${new Date(r.untilMs).toISOString()}${r.owner ? `, owner ${r.owner}` : ''}`;
  const sign = (points: HolderSign['points'], says: string): HolderSign => ({
    points,
    says,
    fact,
    from: r.from,
    at: new Date(r.nowMs).toISOString(),
  });
  if (r.untilMs <= r.nowMs)
    return {
      ...sign(
        'unknown',
        `its ${r.column} passed ${ago(r.nowMs - r.untilMs)} ago: by ${r.tool}’s own rule the lock is free; ${RULE_IS_NOT_ABSENCE}`,
      ),
      basis: 'rule',
    };
  return sign(
    'unknown',
    `${r.tool} writes no heartbeat: the row holds until its ${r.column} (in ${ago(r.untilMs - r.nowMs)}) by its own rule; whether ${
      r.owner ? `its owner ${r.owner}` : 'its owner'
    } still runs would settle it sooner`,
  );
}
