// Locks in PostgreSQL (stores.md): advisory locks with their holders' sessions, and lock tables found by shape, judged
// on now(); force-released by one guarded pg_terminate_backend (advisory) or one conditional statement (rows), recorded
// in a lockboard_audit table before and after. Lock names: `advisory:<key>`, `<schema>.<table>/<row key>`.
import type { AuditRecord } from '../../audit-record';
import { assertVersion, notALockView, recordedRelease, type LockStore, type LockView } from '../../store';
import type { ReleaseRequest, StorePage, StoreReleaseResult } from '../../store';
import { PostgresAuditTrail } from './audit';
import { ADVISORY_TERMS, rowTerms } from './terms';
import type { LockHealth } from '../../types';
import { ADVISORY_QUERY, advisoryViews, TERMINATE, type AdvisoryRow, type Queryable } from './advisory';
import { releaseStatement } from './release-statement';
import { findLockTables, ident, readRows, type LockTable, type TableRow } from './tables';
import { POSTGRES_VERSION } from './version';

export interface PostgresStoreOptions {
  /** A pg Client or Pool (the console's own connection; never a lock holder's). */
  client: Queryable;
  /** Source as shown, without credentials: `postgres://host:port/db`. */
  source?: string;
  /** Schemas searched for lock tables (default `public`). */
  schemas?: string[];
  /** Where lockboard_audit lives (default `public`). */
  auditSchema?: string;
  longHeldMs?: number;
  close?: () => Promise<void>;
}

const KIND_LABEL: Record<string, string> = {
  'lockboard-table': 'Lockboard lock (PostgreSQL)',
  'unique-index': 'Lock table (unique index, holder pid)',
  shedlock: 'ShedLock',
  liquibase: 'Liquibase changelog lock',
  'db-scheduler': 'db-scheduler execution',
};

export class PostgresLockStore implements LockStore {
  readonly kind = 'postgres';
  readonly versionShape = POSTGRES_VERSION;
  readonly source: string;
  private readonly firstSeen = new Map<string, number>();
  private offsetMs = 0;
  private readonly trail: PostgresAuditTrail;

  constructor(private readonly o: PostgresStoreOptions) {
    this.source = o.source ?? 'postgres';
    this.trail = new PostgresAuditTrail(o.client, o.auditSchema ?? 'public', o.schemas ?? ['public']);
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  async close(): Promise<void> {
    await this.o.close?.();
  }

  async list(): Promise<StorePage> {
    const { rows } = await this.o.client.query<AdvisoryRow>(ADVISORY_QUERY);
    const serverNow = await this.serverNow(rows[0]?.server_now);
    const locks = advisoryViews(rows, this.source, this.o.longHeldMs, this.firstSeen);
    let skipped = 0;
    for (const table of await findLockTables(this.o.client, this.o.schemas ?? ['public'])) {
      for (const row of await readRows(this.o.client, table)) {
        if (!row.held) {
          skipped++; // a released marker (ShedLock, Liquibase keep their rows)
          continue;
        }
        locks.push(this.rowView(table, row, serverNow));
      }
    }
    return { locks, skipped, serverTime: new Date(serverNow).toISOString() };
  }

  private async serverNow(known?: Date): Promise<number> {
    const now = known ?? (await this.o.client.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
    this.offsetMs = now.getTime() - Date.now();
    return now.getTime();
  }

  private rowView(t: LockTable, r: TableRow, now: number): LockView {
    const since = r.acquiredAt?.getTime() ?? now;
    const dead = r.alive === false;
    const health: LockHealth = dead
      ? 'expired'
      : r.until
        ? now >= r.until.getTime()
          ? 'expired'
          : 'healthy'
        : this.o.longHeldMs !== undefined && now - since > this.o.longHeldMs
          ? 'long-held'
          : r.alive
            ? 'healthy'
            : 'unknown';
    return {
      store: 'postgres',
      source: this.source,
      bucket: this.source,
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
      versionLabel: `row ${r.version.split('|').slice(1).join(' · ') || r.version}`.slice(0, 80),
      terms: rowTerms({
        kind: t.kind,
        recordsTime: r.acquiredAt !== undefined,
        liveness: r.until
          ? 'The row says until when it is held; after that its library takes it over.'
          : 'Held while the holder’s backend (or heartbeat) is alive; the row stays until it is deleted.',
      }),
    };
  }

  /** The lock under `name`; a row of a table that is not a lock table is shown as not a lock. */
  async inspect(name: string): Promise<LockView | null> {
    const { locks } = await this.list();
    const found = locks.find((l) => l.name === name);
    if (found) return found;
    const table = /^([^./]+)\.([^/]+)\//.exec(name);
    if (!table) return null;
    const tables = await findLockTables(this.o.client, this.o.schemas ?? ['public']);
    if (tables.some((t) => t.schema === table[1] && t.table === table[2])) return null; // a lock table: that row is free
    const exists = await this.o.client.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [
      `${ident(table[1]!)}.${ident(table[2]!)}`,
    ]);
    if (!exists.rows[0]?.t) return null;
    const what = `A row of ${table[1]}.${table[2]}, a table of no lock shape`;
    return notALockView({ kind: this.kind, source: this.source, name, what, nowMs: this.now(), terms: ADVISORY_TERMS });
  }

  async forceRelease(o: ReleaseRequest): Promise<StoreReleaseResult> {
    assertVersion(this, o.version);
    const before = await this.inspect(o.name);
    if (!before) return { outcome: 'gone', current: null, audit: [] };
    if (!before.releasable) return { outcome: 'not-a-lock', current: before, audit: [] };
    const [pid, backendUs, database, classid, objid, objsubid] = o.version.split('.');
    if (before.format === 'advisory' && backendUs === 'hidden') {
      throw Object.assign(
        new Error(
          "The holder's backend start is hidden from this role, so a reused pid could not be told apart: nothing " +
            'was terminated. Grant the console pg_read_all_stats (or pg_monitor) and pg_signal_backend.',
        ),
        { code: '42501' },
      );
    }
    const fields = { version: o.version, operator: o.operator, reason: o.reason, format: before.format };
    const trail = `${this.o.auditSchema ?? 'public'}.lockboard_audit`;
    const words = {
      where: `in the table ${trail}`,
      fix: 'have its owner create it once ("lockboard postgres init"), or grant INSERT on it and USAGE on its sequence.',
    };
    return recordedRelease({ lock: o.name, trail, words, fields, record: (f) => this.record(f) }, async () => {
      let released = false;
      if (before.format === 'advisory') {
        const args = [Number(pid), backendUs, database, classid, objid, Number(objsubid)];
        released = (await this.o.client.query(TERMINATE, args)).rows.length === 1;
      } else {
        const tables = await findLockTables(this.o.client, this.o.schemas ?? ['public']);
        const table = tables.find((t) => o.name.startsWith(`${t.schema}.${t.table}/`));
        if (table) {
          const statement = releaseStatement(table, o.version, o.reason, o.operator);
          released = ((await this.o.client.query(statement.text, statement.values)).rowCount ?? 0) > 0;
        }
      }
      const current = released ? null : await this.inspect(o.name);
      return { outcome: released ? 'released' : current ? 'changed' : 'gone', current };
    });
  }

  record(fields: Record<string, string>): Promise<string> {
    return this.trail.record(fields);
  }

  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    return this.trail.read(from, to, lock);
  }
}
