// What a MySQL/MariaDB lock says of its holder (stores.md "Verdict"). A named lock: its holder connection's Command,
// Time and State from the process list the listing already reads (connected → alive, never "working"; Killed → gone;
// asleep past a threshold → stalled, waiting for its client). A lock table's row: by its tool's own rule, on the
// server's clock (ShedLock's lock_until, Laravel's expiration); Liquibase has no heartbeat, so its row is unknown.
import { ago, liquibaseSign, untilSign } from '../../verdict/row-rules';
import type { HolderSign } from '../../verdict/verdict';
import type { Connection } from './sessions';
import type { TableRow } from './table-rows';
import type { MysqlLockTable } from './tables';

/** A holder connection asleep this long while it holds a named lock is waiting for its client, not running. */
export const IDLE_STALLED_MS = 5 * 60_000;

const PROCESSLIST = 'information_schema.PROCESSLIST';

const connectionFact = (h: Connection) =>
  `connection ${h.id} (${h.user}@${h.host}): Command ${h.command}, Time ${h.time} s, State ${h.state || '—'}${
    h.inTransaction ? ', inside an open transaction' : ''
  }`;

/** The sign of a named lock's holder connection, at `nowMs` on the server's clock. */
export function namedSign(h: Connection, nowMs: number, idleStalledMs = IDLE_STALLED_MS): HolderSign {
  const base = { fact: connectionFact(h), from: PROCESSLIST, at: new Date(nowMs).toISOString() };
  const sign = (points: HolderSign['points'], says: string): HolderSign => ({ ...base, points, says });
  const who = `connection ${h.id}`;
  if (h.user === '?')
    return sign('unknown', `${who} is hidden from this user: grant it PROCESS to see the holder's connection`);
  if (h.command === 'Killed')
    return { ...sign('gone', `${who} was killed (Command Killed): it frees its locks as it ends`), basis: 'absence' };
  if (h.command === 'Sleep') {
    const tx = h.inTransaction ? ' inside an open transaction' : '';
    const words = `${who} (${h.user}@${h.host}) has been idle${tx} for ${ago(h.timeMs)}, waiting for its client`;
    return h.timeMs > idleStalledMs
      ? sign('stalled', words)
      : sign('alive', `${words} (stalled after ${ago(idleStalledMs)})`);
  }
  const state = h.state ? `, ${h.state}` : '';
  return sign('alive', `${who} (${h.user}@${h.host}) is connected: ${h.command}${state} for ${ago(h.timeMs)}`);
}

/** The sign of a lock table's row by its tool's own rule, at `nowMs` on the server's clock. */
export function rowSign(t: MysqlLockTable, r: TableRow, nowMs: number): HolderSign {
  const read = { from: `${t.table} (row ${r.key})`, nowMs, ...(r.owner ? { owner: r.owner } : {}) };
  if (t.kind === 'liquibase')
    return liquibaseSign({ ...read, ...(r.acquiredAtMs !== undefined ? { grantedMs: r.acquiredAtMs } : {}) });
  if (t.kind === 'quartz')
    return {
      points: 'unknown',
      says: 'Quartz shows no holder in this row: the schedulers’ check-ins (QRTZ_SCHEDULER_STATE) would settle it',
      fact: 'a QRTZ_LOCKS row',
      from: read.from,
      at: new Date(nowMs).toISOString(),
    };
  const shedlock = t.kind === 'shedlock';
  const untilMs = r.held ? (r.untilMs ?? nowMs) : Math.min(r.untilMs ?? nowMs, nowMs);
  return untilSign({
    ...read,
    tool: shedlock ? 'ShedLock' : 'Laravel',
    column: shedlock ? 'lock_until' : 'expiration',
    untilMs,
  });
}
