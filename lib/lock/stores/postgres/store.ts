// Locks in PostgreSQL (docs/stores.md): advisory locks with their holders' sessions, and lock tables found by shape,
// judged on now(); force-released by one guarded pg_terminate_backend (advisory) or one conditional statement (rows),
// recorded in a lockboard_audit table before and after. Lock names: `advisory:<key>`, `<schema>.<table>/<row key>`.
import type { AuditRecord } from '../../audit/record';
import { assertVersion, notALockView, recordedRelease, VersionShapeError } from '../../store';
import type { LockStore, LockView } from '../../store';
import type { ReleaseRequest, StorePage, StoreReleaseResult } from '../../store';
import { PostgresAuditTrail } from './audit';
import type { ClaimLeasing } from '../../claim-lease';
import { PostgresClaims } from './claim';
import { ADVISORY_TERMS } from './words';
import { ADVISORY_QUERY, advisoryViews, TERMINATE, type AdvisoryRow } from './advisory';
import type { Queryable } from './tables';
import { releaseStatement } from './release-statement';
import { tableName } from './table-pages';
import { decodePosition, encodePosition, type TablePosition } from '../sql/page-token';
import { tableRowView } from './view';
import { readRows, type TableRow } from './table-rows';
import { findLockTables, ident, type LockTable } from './tables';
import { ADVISORY_SHAPE, ADVISORY_VERSION, POSTGRES_VERSION, ROW_VERSIONS } from './version';
import { describeRowVersion, parseRowVersion } from '../sql/row-version';

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

export class PostgresLockStore implements LockStore {
  readonly kind = 'postgres';
  readonly versionShape = POSTGRES_VERSION;
  readonly source: string;
  private readonly firstSeen = new Map<string, number>();
  private offsetMs = 0;
  private readonly trail: PostgresAuditTrail;
  private readonly claims: PostgresClaims;

  constructor(private readonly o: PostgresStoreOptions) {
    this.source = o.source ?? 'postgres';
    this.trail = new PostgresAuditTrail(o.client, o.auditSchema ?? 'public', o.schemas ?? ['public']);
    this.claims = new PostgresClaims(o.client, o.auditSchema ?? 'public');
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  async close(): Promise<void> {
    await this.o.close?.();
  }

  /**
   * The advisory locks and the first page of the first lock table; then each table in keyset pages of PAGE_ROWS rows,
   * in name order (a table dropped meanwhile: the listing goes on at the next name).
   */
  async list(pageToken?: string): Promise<StorePage> {
    const at = pageToken ? decodePosition(pageToken, 'PostgreSQL') : undefined;
    const locks: LockView[] = [];
    let serverNow: number;
    if (!at) {
      const { rows } = await this.o.client.query<AdvisoryRow>(ADVISORY_QUERY);
      serverNow = await this.serverNow(rows[0]?.server_now);
      locks.push(...advisoryViews(rows, this.source, this.o.longHeldMs, this.firstSeen));
    } else serverNow = await this.serverNow();
    const tables = (await this.tables()).sort((a, b) => (tableName(a) < tableName(b) ? -1 : 1));
    const i = at ? tables.findIndex((t) => tableName(t) >= at.table) : 0;
    const table = tables[i];
    let skipped = 0;
    let next: TablePosition | undefined;
    if (table) {
      const same = at?.table === tableName(table);
      const page = await readRows(this.o.client, table, same && at.after ? { after: at.after } : {});
      for (const row of page.rows) {
        if (row.held) locks.push(this.rowView(table, row, serverNow));
        else skipped++; // a released marker (ShedLock, Liquibase keep their rows)
      }
      const following = tables[i + 1];
      next = page.next ? { table: tableName(table), after: page.next } : following && { table: tableName(following) };
    }
    return {
      locks,
      skipped,
      serverTime: new Date(serverNow).toISOString(),
      ...(next ? { nextPageToken: encodePosition(next) } : {}),
    };
  }

  private tables(): Promise<LockTable[]> {
    return findLockTables(this.o.client, this.o.schemas ?? ['public']);
  }

  private async serverNow(known?: Date): Promise<number> {
    const now = known ?? (await this.o.client.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
    this.offsetMs = now.getTime() - Date.now();
    return now.getTime();
  }

  private rowView(t: LockTable, r: TableRow, now: number): LockView {
    return tableRowView(t, r, now, this.source, this.o.longHeldMs);
  }

  /** The lock under `name`, read alone; a row of a table that is not a lock table is shown as not a lock. */
  async inspect(name: string): Promise<LockView | null> {
    if (name.startsWith('advisory:')) {
      const { rows } = await this.o.client.query<AdvisoryRow>(ADVISORY_QUERY);
      await this.serverNow(rows[0]?.server_now);
      return advisoryViews(rows, this.source, this.o.longHeldMs, this.firstSeen).find((l) => l.name === name) ?? null;
    }
    const table = /^([^./]+)\.([^/]+)\//.exec(name);
    if (!table) return null;
    const lockTable = (await this.tables()).find((t) => name.startsWith(`${tableName(t)}/`));
    if (lockTable) {
      const serverNow = await this.serverNow();
      const { rows } = await readRows(this.o.client, lockTable, { name: name.slice(tableName(lockTable).length + 1) });
      const row = rows.find((r) => r.held);
      return row ? this.rowView(lockTable, row, serverNow) : null; // a lock table: no held row means free
    }
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
    // the version checked against the lock's own shape before anything is recorded
    const release = before.format === 'advisory' ? this.terminate(o.version) : await this.rowRelease(o);
    const fields = { version: o.version, operator: o.operator, reason: o.reason, format: before.format };
    const trail = `${this.o.auditSchema ?? 'public'}.lockboard_audit`;
    const words = {
      where: `in the table ${trail}`,
      fix: 'have its owner create it once ("lockboard postgres init"), or grant INSERT on it and USAGE on its sequence.',
    };
    return recordedRelease({ lock: o.name, trail, words, fields, record: (f) => this.record(f) }, async () => {
      const released = await release();
      const current = released ? null : await this.inspect(o.name);
      return { outcome: released ? 'released' : current ? 'changed' : 'gone', current };
    });
  }

  /** The guarded terminate of exactly the holder the advisory version names: true if it was ended. */
  private terminate(version: string): () => Promise<boolean> {
    if (!ADVISORY_VERSION.test(version)) throw new VersionShapeError(this.source, version, ADVISORY_SHAPE);
    const [pid, backendUs, database, classid, objid, objsubid] = version.split('.');
    if (backendUs === 'hidden') {
      throw Object.assign(
        new Error(
          "The holder's backend start is hidden from this role, so a reused pid could not be told apart: nothing " +
            'was terminated. Grant the console pg_read_all_stats (or pg_monitor) and pg_signal_backend.',
        ),
        { code: '42501' },
      );
    }
    const args = [Number(pid), backendUs, database, classid, objid, Number(objsubid)];
    return async () => (await this.o.client.query(TERMINATE, args)).rows.length === 1;
  }

  /** The one conditional statement on exactly the row version seen: true if it changed the row. */
  private async rowRelease(o: ReleaseRequest): Promise<() => Promise<boolean>> {
    const table = (await this.tables()).find((t) => o.name.startsWith(`${t.schema}.${t.table}/`));
    if (!table) return async () => false; // dropped since it was read: nothing to release
    const shape = ROW_VERSIONS[table.kind];
    const parts = parseRowVersion(o.version, shape);
    if (!parts) throw new VersionShapeError(this.source, o.version, describeRowVersion(shape));
    const statement = releaseStatement(table, parts, o.reason, o.operator);
    return async () => ((await this.o.client.query(statement.text, statement.values)).rowCount ?? 0) > 0;
  }

  record(fields: Record<string, string>): Promise<string> {
    return this.trail.record(fields);
  }

  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    return this.trail.read(from, to, lock);
  }

  /** A create-only row of lockboard_claims beside the trail, or its lease (claim.ts). */
  claim(key: string, lease?: ClaimLeasing): Promise<boolean> {
    if (lease) return lease(this.claims);
    return this.claims.claim(key);
  }
}
