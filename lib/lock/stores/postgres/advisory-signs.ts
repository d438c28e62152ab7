// What an advisory lock's session says of its holder (docs/verdict.md), from the same pg_stat_activity row the
// listing reads: blocked by another pid (pg_blocking_pids) or idle in a transaction past a threshold → stalled; a
// session running or open → alive; a state this role may not read → unknown, naming the grant that settles it.
import type { HolderSign } from '../../verdict/verdict';

/** An open transaction left idle this long is waiting for its client, not working (pgbouncer's default is off). */
const IDLE_IN_TX_STALLED_MS = 5 * 60_000;

const ago = (ms: number) => (ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`);

/** The fields of an advisory row (advisory.ts) a sign reads. */
interface SignRow {
  pid: number;
  state: string | null;
  state_change: Date | null;
  xact_start: Date | null;
  wait_event_type: string | null;
  wait_event: string | null;
  blocking_pids: number[] | null;
}

export function advisorySign(r: SignRow, nowMs: number): HolderSign {
  const at = new Date(nowMs).toISOString();
  const from = 'pg_stat_activity, pg_blocking_pids';
  const since = r.state_change ? nowMs - r.state_change.getTime() : 0;
  const fact = `pid ${r.pid}: state ${r.state ?? 'hidden'}${r.state_change ? ` since ${r.state_change.toISOString()}` : ''}${
    r.xact_start ? `, transaction since ${r.xact_start.toISOString()}` : ''
  }${r.wait_event ? `, waiting on ${r.wait_event_type}/${r.wait_event}` : ''}${
    r.blocking_pids?.length ? `, blocked by pid ${r.blocking_pids.join(', ')}` : ''
  }`;
  const sign = (points: HolderSign['points'], says: string): HolderSign => ({ points, says, fact, from, at });
  if (r.blocking_pids?.length)
    return sign(
      'stalled',
      `PostgreSQL pid ${r.pid} is blocked by pid ${r.blocking_pids.join(', ')} (${r.wait_event_type ?? '?'}/${r.wait_event ?? '?'})`,
    );
  if (r.state === null)
    return sign('unknown', `the session of pid ${r.pid} cannot be read by this role: grant it pg_read_all_stats`);
  if (r.state.startsWith('idle in transaction')) {
    const words = `PostgreSQL pid ${r.pid} has been idle in a transaction for ${ago(since)}, waiting for its client`;
    return since > IDLE_IN_TX_STALLED_MS
      ? sign('stalled', words)
      : sign('alive', `${words} (stalled after ${ago(IDLE_IN_TX_STALLED_MS)})`);
  }
  if (r.state === 'active') return sign('alive', `PostgreSQL pid ${r.pid} is running a query (for ${ago(since)})`);
  return sign('alive', `PostgreSQL pid ${r.pid}'s session is open (${r.state} for ${ago(since)})`);
}
