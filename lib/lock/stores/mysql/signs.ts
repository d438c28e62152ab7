// What a MySQL/MariaDB lock says of its holder (stores.md "Verdict"). A named lock: its holder connection's Command,
// Time and State from the process list the listing already reads (connected → alive, never "working"; Killed → gone;
// asleep past a threshold → stalled, waiting for its client). A lock table's row: by its tool's own rule, on the
// server's clock (ShedLock's lock_until, Laravel's expiration); Liquibase has no heartbeat, so its row is unknown.
import type { HolderSign } from '../../verdict/verdict';
import type { Connection } from './sessions';
import type { TableRow } from './table-rows';
import type { MysqlLockTable } from './tables';

/** A holder connection asleep this long while it holds a named lock is waiting for its client, not running. */
export const IDLE_STALLED_MS = 5 * 60_000;

const PROCESSLIST = 'information_schema.PROCESSLIST';

export const ago = (ms: number) =>
  ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(0, Math.round(ms / 1000))} s`;

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
  if (h.command === 'Killed') return sign('gone', `${who} was killed (Command Killed): it frees its locks as it ends`);
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
  const at = new Date(nowMs).toISOString();
  const from = `${t.table} (row ${r.key})`;
  const sign = (points: HolderSign['points'], says: string, fact: string): HolderSign => ({
    points,
    says,
    fact,
    from,
    at,
  });
  const by = r.owner ? ` by ${r.owner}` : '';
  if (t.kind === 'liquibase') {
    const granted = r.acquiredAtMs === undefined ? 'at an unknown time' : `${ago(nowMs - r.acquiredAtMs)} ago`;
    return sign(
      'unknown',
      `Liquibase has no heartbeat: the changelog lock was granted ${granted}${by}; whether that LOCKEDBY host still runs its Liquibase process would settle it`,
      `LOCKED = 1, LOCKGRANTED ${r.acquiredAtMs === undefined ? 'null' : new Date(r.acquiredAtMs).toISOString()}, LOCKEDBY ${r.owner ?? 'null'}`,
    );
  }
  if (t.kind === 'quartz')
    return sign(
      'unknown',
      'Quartz shows no holder in this row: the schedulers’ check-ins (QRTZ_SCHEDULER_STATE) would settle it',
      'a QRTZ_LOCKS row',
    );
  return untilSign(t.kind === 'shedlock' ? 'ShedLock' : 'Laravel', r, nowMs, sign);
}

type Sign = (points: HolderSign['points'], says: string, fact: string) => HolderSign;

/** ShedLock and Laravel: held until the row's own end, with no heartbeat before it. */
function untilSign(tool: string, r: TableRow, nowMs: number, sign: Sign): HolderSign {
  const until = r.untilMs ?? nowMs;
  const column = tool === 'ShedLock' ? 'lock_until' : 'expiration';
  const fact = `${column} ${new Date(until).toISOString()}${r.owner ? `, owner ${r.owner}` : ''}`;
  if (!r.held || until <= nowMs)
    return sign('gone', `its ${column} passed ${ago(nowMs - until)} ago: by ${tool}’s own rule the lock is free`, fact);
  return sign(
    'unknown',
    `${tool} writes no heartbeat: the row holds until its ${column} (in ${ago(until - nowMs)}) by its own rule; whether ${
      r.owner ? `its owner ${r.owner}` : 'its owner'
    } still runs would settle it sooner`,
    fact,
  );
}
