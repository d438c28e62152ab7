// A lock table's row as a LockView: held by its tool's rule on the server's clock, the exact row version a release
// pins, Quartz's rows shown read-only with why.
import type { LockView } from '../../store';
import type { LockHealth } from '../../types';
import { rowVersionLabel } from '../sql/row-version';
import { rowSign } from './signs';
import type { TableRow } from './table-rows';
import type { MysqlLockTable } from './tables';
import { rowTerms } from './words';

const LABEL: Record<MysqlLockTable['kind'], string> = {
  shedlock: 'ShedLock',
  liquibase: 'Liquibase changelog lock',
  laravel: 'Laravel cache lock',
  quartz: 'Quartz scheduler lock (read-only)',
};

const FORMAT: Record<MysqlLockTable['kind'], LockView['format']> = {
  shedlock: 'shedlock',
  liquibase: 'liquibase',
  laravel: 'laravel',
  quartz: 'quartz',
};

const QUARTZ_WHY =
  'Read-only: Quartz holds this row with SELECT … FOR UPDATE inside a transaction; InnoDB shows the holder’s ' +
  'transaction but not which row it locked, and the only force would be killing a scheduler’s connection (its ' +
  'whole transaction rolls back). Check the scheduler instances’ check-ins instead.';

export function rowView(
  t: MysqlLockTable,
  r: TableRow,
  o: { nowMs: number; source: string; mariadb: boolean; longHeldMs?: number; extra?: [string, string][] },
): LockView {
  const since = r.acquiredAtMs ?? o.nowMs;
  // a row with an end holds by the tool's rule, read by the server (`held`); Liquibase's never ends
  const health: LockHealth =
    t.kind === 'quartz'
      ? 'unknown'
      : r.untilMs !== undefined
        ? r.held
          ? 'healthy'
          : 'expired'
        : o.longHeldMs !== undefined && o.nowMs - since > o.longHeldMs
          ? 'long-held'
          : 'unknown';
  const readOnly = t.kind === 'quartz';
  return {
    store: 'mysql',
    source: o.source,
    bucket: o.source,
    name: `${t.table}/${r.key}`,
    format: FORMAT[t.kind],
    formatLabel: LABEL[t.kind],
    ...(r.owner ? { identity: r.owner } : {}),
    generation: '0',
    metageneration: '0',
    createdAt: new Date(since).toISOString(),
    updatedAt: new Date(since).toISOString(),
    heldMs: Math.max(0, o.nowMs - since),
    ...(r.untilMs !== undefined
      ? { expiresAt: new Date(r.untilMs).toISOString(), afterExpiry: 'expired' as const }
      : {}),
    health,
    metadata: {},
    details: [
      ...r.details,
      ['Table', t.table],
      ...(t.lockedType ? [['LOCKED column', lockedNote(t.lockedType)] as [string, string]] : []),
      ...(o.extra ?? []),
    ],
    releasable: !readOnly,
    releaseRule: readOnly ? 'none' : 'delete',
    releaseNote: readOnly ? QUARTZ_WHY : releaseNote(t.kind),
    ...(readOnly ? { note: QUARTZ_WHY } : {}),
    size: 0,
    version: r.version,
    versionLabel: rowVersionLabel(r.version),
    terms: rowTerms({ kind: t.kind, mariadb: o.mariadb, recordsTime: r.acquiredAtMs !== undefined }),
    signs: [rowSign(t, r, o.nowMs)],
  };
}

function lockedNote(type: string): string {
  const by = /^BIT/.test(type)
    ? 'created by Liquibase 3.x–4.2x'
    : type === 'TINYINT(1)'
      ? 'Liquibase 5, or its MariaDB type'
      : 'Liquibase 4.29–4.3x'; // TINYINT, shown by MariaDB as TINYINT(4)
  return `${type} (${by})`;
}

function releaseNote(kind: MysqlLockTable['kind']): string {
  if (kind === 'liquibase')
    return 'Sets LOCKED = 0 (the row is kept, as Liquibase’s own release does) only if it is still the lock you saw: same LOCKEDBY, same LOCKGRANTED (to the second; the same host re-locking within that second is the one case left, negligible with Liquibase’s 10 s poll).';
  if (kind === 'shedlock')
    return 'Sets lock_until to now (as ShedLock’s unlock does) only if the row is exactly the one you saw: same locked_by, locked_at and lock_until.';
  return 'Deletes the row (as Laravel’s release does) only if it has the same owner and expiration you saw.';
}
