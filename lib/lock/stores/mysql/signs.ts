// What a MySQL/MariaDB lock says of its holder (docs/verdict.md). A named lock: its holder connection's Command,
// Time and State from the process list the listing already reads (connected → alive, never "working"; Killed → gone).
// A named lock is session state, held idle by design (a leader election holds it for hours between statements), so
// an idle holder is alive while connected, as PostgreSQL's idle advisory holder is (postgres/advisory-signs.ts); only
// one idle inside an open transaction past a threshold is stalled, waiting for its client. A lock table's row: by its
// tool's own rule, on the server's clock (ShedLock's lock_until, Laravel's expiration); Liquibase has no heartbeat,
// so its row is unknown.
import { ago, liquibaseSign, untilSign } from '../../verdict/row-rules';
import type { HolderSign } from '../../verdict/verdict';
import type { Connection } from './sessions';
import type { TableRow } from './table-rows';
import type { MysqlLockTable } from './tables';

/** A holder connection idle this long inside an open transaction is waiting for its client, not running. */
const IDLE_STALLED_MS = 5 * 60_000;

const PROCESSLIST = 'information_schema.PROCESSLIST';

const connectionFact = (h: Connection) =>
  `connection ${h.id} (${h.user}@${h.host}): Command ${h.command}, Time ${h.time} s, State ${h.state || '—'}${
    h.inTransaction ? ', inside an open transaction' : ''
  }`;

type Sign = (points: HolderSign['points'], says: string) => HolderSign;

/** An idle holder: alive while connected, stalled only idle inside an open transaction past `idleStalledMs`. */
function idleSign(h: Connection, idleStalledMs: number, sign: Sign): HolderSign {
  const who = `connection ${h.id} (${h.user}@${h.host})`;
  if (h.inTransaction) {
    const words = `${who} has been idle inside an open transaction for ${ago(h.timeMs)}, waiting for its client`;
    return h.timeMs > idleStalledMs
      ? sign('stalled', words)
      : sign('alive', `${words} (stalled after ${ago(idleStalledMs)})`);
  }
  const tx =
    h.inTransaction === false
      ? 'outside any transaction'
      : 'whether inside a transaction is unread (INNODB_TRX needs PROCESS)';
  return sign(
    'alive',
    `${who} is connected, idle for ${ago(h.timeMs)} (${tx}): a named lock is held by its session, idle between statements by design`,
  );
}

/** The sign of a named lock's holder connection, at `nowMs` on the server's clock. */
export function namedSign(h: Connection, nowMs: number, idleStalledMs = IDLE_STALLED_MS): HolderSign {
  const base = { fact: connectionFact(h), from: PROCESSLIST, at: new Date(nowMs).toISOString() };
  const sign: Sign = (points, says) => ({ ...base, points, says });
  const who = `connection ${h.id}`;
  if (h.user === '?')
    return sign('unknown', `${who} is hidden from this user: grant it PROCESS to see the holder's connection`);
  if (h.command === 'Killed')
    return { ...sign('gone', `${who} was killed (Command Killed): it frees its locks as it ends`), basis: 'absence' };
  if (h.command === 'Sleep') return idleSign(h, idleStalledMs, sign);
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
