// Advisory locks: one query over pg_locks ⨝ pg_stat_activity, keys decoded (bigint or two int4), well-known tools'
// keys named, the holder's session shown; waiters folded into the lock they wait for. Force-release is one guarded
// pg_terminate_backend: same pid, same backend_start at full precision (µs), the lock still granted to it.
import type { LockView } from '../../store';
import { ADVISORY_TERMS } from './words';
import { maskQuery } from './mask';
import type { LockHealth } from '../../types';
import { advisorySign } from './advisory-signs';
import { wellKnownKey } from '../sql/well-known-keys';

export const ADVISORY_QUERY = `
SELECT l.database::text AS database, d.datname, l.classid::text AS classid, l.objid::text AS objid, l.objsubid,
       l.granted, l.waitstart, a.pid, (extract(epoch from a.backend_start) * 1000000)::bigint::text AS backend_us,
       a.backend_start, a.usename, a.application_name, host(a.client_addr) AS client_addr, a.state, a.xact_start,
       a.state_change, a.wait_event_type, a.wait_event, pg_blocking_pids(a.pid) AS blocking_pids,
       left(a.query, 300) AS query, now() AS server_now
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid LEFT JOIN pg_database d ON d.oid = l.database
WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
ORDER BY l.granted DESC, a.pid`;

export interface AdvisoryRow {
  database: string;
  datname: string;
  classid: string;
  objid: string;
  objsubid: number;
  granted: boolean;
  waitstart: Date | null;
  pid: number;
  /** null without pg_read_all_stats (another role's session). */
  backend_us: string | null;
  backend_start: Date | null;
  usename: string | null;
  application_name: string;
  client_addr: string | null;
  state: string | null;
  xact_start: Date | null;
  state_change: Date | null;
  wait_event_type: string | null;
  wait_event: string | null;
  /** The pids this session waits for (pg_blocking_pids), in the same read. */
  blocking_pids: number[] | null;
  query: string | null;
  server_now: Date;
}

/** The key as the tool wrote it: a bigint (objsubid 1) or two int4 (objsubid 2; oids are unsigned). */
export function advisoryKey(r: Pick<AdvisoryRow, 'classid' | 'objid' | 'objsubid'>): string {
  const hi = BigInt(r.classid);
  const lo = BigInt(r.objid);
  if (r.objsubid === 1) return BigInt.asIntN(64, (hi << 32n) | lo).toString();
  const int4 = (v: bigint) => (v >= 2n ** 31n ? v - 2n ** 32n : v).toString();
  return `${int4(hi)},${int4(lo)}`;
}

export function advisoryViews(
  rows: AdvisoryRow[],
  source: string,
  longHeldMs: number | undefined,
  firstSeen: Map<string, number>,
): LockView[] {
  const now = rows[0]?.server_now.getTime() ?? Date.now();
  const waiters = new Map<string, AdvisoryRow[]>();
  for (const r of rows.filter((x) => !x.granted)) {
    const k = `${r.classid}.${r.objid}.${r.objsubid}`;
    waiters.set(k, [...(waiters.get(k) ?? []), r]);
  }
  return rows
    .filter((r) => r.granted)
    .map((r) => {
      const key = advisoryKey(r);
      const tool = wellKnownKey(key, r.datname);
      const version = `${r.pid}.${r.backend_us ?? 'hidden'}.${r.database}.${r.classid}.${r.objid}.${r.objsubid}`;
      const seen = firstSeen.get(version) ?? now;
      firstSeen.set(version, seen);
      const idleInTx = r.state === 'idle in transaction' || r.state === 'idle in transaction (aborted)';
      const waiting = waiters.get(`${r.classid}.${r.objid}.${r.objsubid}`) ?? [];
      const health: LockHealth =
        longHeldMs !== undefined && now - seen > longHeldMs ? 'long-held' : idleInTx ? 'overdue' : 'healthy';
      const who = `${r.usename ?? '?'}${r.client_addr ? `@${r.client_addr}` : ''}${r.application_name ? ` (${r.application_name})` : ''}`;
      const details: [string, string][] = [
        ['Key', `${key}${r.objsubid === 2 ? ' (two int4)' : ' (bigint)'}`],
        ...(tool ? [['Tool', tool] as [string, string]] : []),
        ['Holder pid', String(r.pid)],
        ['User', r.usename ?? 'unknown (needs pg_read_all_stats)'],
        ['Application', r.application_name || '—'],
        ['Client address', r.client_addr ?? 'local socket'],
        ['Backend start', r.backend_start?.toISOString() ?? 'hidden (the console needs pg_read_all_stats)'],
        ['Session state', idleInTx ? `${r.state} (holds a transaction open)` : (r.state ?? 'unknown')],
        ['Current query', r.query === null ? '<insufficient privilege>' : maskQuery(r.query)],
        ...(waiting.length
          ? [
              [
                'Waiting',
                waiting
                  .map((w) => `pid ${w.pid}${w.waitstart ? ` since ${w.waitstart.toISOString()}` : ''}`)
                  .join(', '),
              ] as [string, string],
            ]
          : []),
      ];
      return {
        store: 'postgres',
        source,
        bucket: source,
        name: `advisory:${key}`,
        format: 'advisory',
        formatLabel: tool ? `Advisory lock (${tool})` : 'Advisory lock',
        identity: who,
        pid: String(r.pid),
        generation: '0',
        metageneration: '0',
        createdAt: new Date(seen).toISOString(),
        updatedAt: new Date(seen).toISOString(),
        heldMs: now - seen,
        health,
        metadata: {},
        details,
        releasable: true,
        releaseRule: 'delete',
        releaseNote:
          `Ends the holder's whole session (pg_terminate_backend of pid ${r.pid}): every lock it holds is freed and its ` +
          'open transaction rolls back. Only if that pid is still the same backend (same start, to the microsecond) and ' +
          'still holds this lock; a reused pid is never signalled.',
        size: 0,
        version,
        versionLabel: `pid ${r.pid} · started ${r.backend_start?.toISOString() ?? '?'}`,
        terms: ADVISORY_TERMS,
        signs: [advisorySign(r, now)],
        ...(r.query !== null ? { sensitive: [['Current query', r.query]] as [string, string][] } : {}),
      } satisfies LockView;
    });
}

export const TERMINATE = `
SELECT pg_terminate_backend(a.pid, 5000) AS terminated
FROM pg_stat_activity a
WHERE a.pid = $1 AND (extract(epoch from a.backend_start) * 1000000)::bigint::text = $2
  AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory' AND l.granted
              AND l.database::text = $3 AND l.classid::text = $4 AND l.objid::text = $5 AND l.objsubid = $6)`;
