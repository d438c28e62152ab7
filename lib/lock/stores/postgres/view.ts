// A row of a lock table as a lock: health on the server's clock (the row's own end where it has one, the holder's
// backend where the shape records it), the store's words, and the exact row version a release pins.
import type { LockView } from '../../store';
import type { LockHealth } from '../../types';
import { rowVersionLabel } from '../sql/row-version';
import { tableSign } from './table-signs';
import type { TableRow } from './table-rows';
import type { LockTable } from './tables';
import { rowTerms } from './words';

const KIND_LABEL: Record<string, string> = {
  'lockboard-table': 'Lockboard lock (PostgreSQL)',
  'unique-index': 'Lock table (unique index, holder pid)',
  shedlock: 'ShedLock',
  liquibase: 'Liquibase changelog lock',
  'db-scheduler': 'db-scheduler execution',
  laravel: 'Laravel cache lock',
};

export function tableRowView(t: LockTable, r: TableRow, now: number, source: string, longHeldMs?: number): LockView {
  const since = r.acquiredAt?.getTime() ?? now;
  const dead = r.alive === false;
  const health: LockHealth = dead
    ? 'expired'
    : r.until
      ? now >= r.until.getTime()
        ? 'expired'
        : 'healthy'
      : longHeldMs !== undefined && now - since > longHeldMs
        ? 'long-held'
        : r.alive
          ? 'healthy'
          : 'unknown';
  return {
    store: 'postgres',
    source: source,
    bucket: source,
    name: `${t.schema}.${t.table}/${r.key}`,
    format: t.kind === 'lockboard-table' ? 'lockboard' : (t.kind as LockView['format']),
    formatLabel: KIND_LABEL[t.kind]!,
    ...(r.owner ? { identity: r.owner } : {}),
    generation: '0',
    metageneration: '0',
    createdAt: new Date(since).toISOString(),
    updatedAt: new Date(since).toISOString(),
    heldMs: Math.max(0, now - since),
    ...(r.until ? { expiresAt: r.until.toISOString(), afterExpiry: 'expired' as const } : {}),
    health,
    ...(dead ? { note: 'disconnected: the holder’s backend is gone (or its heartbeat stopped)' } : {}),
    metadata: {},
    details: [...r.details, ['Table', `${t.schema}.${t.table}`]],
    releasable: true,
    releaseRule: 'delete',
    releaseNote:
      'One conditional statement on exactly the row version you saw: a holder that re-acquired or a successor is never touched.',
    size: 0,
    version: r.version,
    versionLabel: rowVersionLabel(r.version),
    terms: rowTerms({
      kind: t.kind,
      recordsTime: r.acquiredAt !== undefined,
      liveness: r.until
        ? 'The row says until when it is held; after that its library takes it over.'
        : 'Held while the holder’s backend (or heartbeat) is alive; the row stays until it is deleted.',
    }),
    signs: [tableSign(t, r, now)],
  };
}
