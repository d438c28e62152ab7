// Locks in MySQL and MariaDB (issue 49): named locks (GET_LOCK) with their holder connections and waiters in order,
// and lock tables found by shape (Liquibase, ShedLock, Laravel, Quartz read-only), judged on the server's clock;
// force-released by one guarded KILL (named) or one conditional statement (rows), recorded in lockboard_audit before
// and after. Lock names: `named:<lock name>` (a waiter: `named:<lock name>/waiter/<connection id>`), `<table>/<key>`.
import type { AuditRecord } from '../../audit/record';
import { assertVersion, notALockView, recordedRelease, type LockStore, type LockView } from '../../store';
import type { ReleaseRequest, StorePage, StoreReleaseResult } from '../../store';
import { decodePosition, encodePosition, type TablePosition } from '../sql/page-token';
import { MysqlAuditTrail } from './audit';
import type { ClaimLeasing } from '../../claim-lease';
import { MysqlClaims } from './claim';
import type { Db } from './client';
import { readNamedLocks, type NamedReading } from './named-locks';
import { pinnedRelease } from './release';
import { quartzCheckIns } from './quartz';
import { rowView } from './row-view';
import { serverClock, START_SLACK_S, type ServerClock } from './server';
import { readRows, type TableRow } from './table-rows';
import { findLockTables, type MysqlLockTable } from './tables';
import { MYSQL_VERSION } from './version';
import { namedName, namedView, waiterView, type NamedContext } from './view';
import { namedTerms } from './words';

export interface MysqlStoreOptions {
  /** The store's pool (never a lock holder's session). */
  db: Db;
  /** Source as shown, without credentials: `mysql://host:port/db`. */
  source?: string;
  /** The source's database (tool names derived from it: Flyway, Rails, golang-migrate). */
  database: string;
  longHeldMs?: number;
  /** A named lock's holder idle this long inside an open transaction is judged stalled (default 5 min). */
  idleStalledMs?: number;
  close?: () => Promise<void>;
}

export class MysqlLockStore implements LockStore {
  readonly kind = 'mysql';
  readonly versionShape = MYSQL_VERSION;
  readonly source: string;
  private readonly firstSeen = new Map<string, number>();
  private offsetMs = 0;
  private startS: number | undefined;
  private mariadb = true;
  private readonly trail: MysqlAuditTrail;
  private readonly claims: MysqlClaims;

  constructor(private readonly o: MysqlStoreOptions) {
    this.source = o.source ?? 'mysql';
    this.trail = new MysqlAuditTrail(o.db);
    this.claims = new MysqlClaims(o.db);
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  async close(): Promise<void> {
    await this.o.close?.();
  }

  /** The named locks and the first page of the first lock table; then each table in keyset pages, in name order. */
  async list(pageToken?: string): Promise<StorePage> {
    const at = pageToken ? decodePosition(pageToken, 'MySQL') : undefined;
    const locks: LockView[] = [];
    if (at) this.keep(await serverClock(this.o.db));
    else {
      const reading = await this.named();
      locks.push(...reading.locks.map((l) => namedView(l, reading, this.context())));
    }
    const tables = await findLockTables(this.o.db);
    const i = at ? tables.findIndex((t) => t.table >= at.table) : 0;
    const table = tables[i];
    let skipped = 0;
    let next: TablePosition | undefined;
    if (table) {
      const same = at?.table === table.table;
      const page = await readRows(this.o.db, table, same && at.after ? { after: at.after } : {});
      const extra = await quartzCheckIns(this.o.db, table);
      for (const row of page.rows) {
        if (row.held) locks.push(this.rowView(table, row, extra));
        else skipped++; // a released marker: Liquibase and ShedLock keep their rows
      }
      const following = tables[i + 1];
      next = page.next ? { table: table.table, after: page.next } : following && { table: following.table };
    }
    return {
      locks,
      skipped,
      serverTime: new Date(this.now()).toISOString(),
      ...(next ? { nextPageToken: encodePosition(next) } : {}),
    };
  }

  /** The named locks, the server's clock kept (its start held steady across reads within START_SLACK_S). */
  private async named(): Promise<NamedReading> {
    const reading = await readNamedLocks(this.o.db);
    this.keep(reading.clock);
    return reading;
  }

  private keep(clock: ServerClock): void {
    this.offsetMs = clock.nowMs - Date.now();
    this.mariadb = clock.mariadb;
    if (this.startS === undefined || Math.abs(clock.startS - this.startS) > START_SLACK_S) this.startS = clock.startS;
  }

  private context(): NamedContext {
    return {
      source: this.source,
      database: this.o.database,
      startS: this.startS!,
      longHeldMs: this.o.longHeldMs,
      ...(this.o.idleStalledMs !== undefined ? { idleStalledMs: this.o.idleStalledMs } : {}),
      firstSeen: this.firstSeen,
    };
  }

  private rowView(t: MysqlLockTable, r: TableRow, extra?: [string, string][]): LockView {
    const o = { nowMs: this.now(), source: this.source, mariadb: this.mariadb, longHeldMs: this.o.longHeldMs };
    return rowView(t, r, { ...o, ...(extra ? { extra } : {}) });
  }

  async inspect(name: string): Promise<LockView | null> {
    if (name.startsWith('named:')) return this.inspectNamed(name);
    const slash = name.indexOf('/');
    if (slash < 1) return null;
    const tables = await findLockTables(this.o.db);
    const table = tables.find((t) => name.startsWith(`${t.table}/`));
    if (table) {
      this.keep(await serverClock(this.o.db));
      const { rows } = await readRows(this.o.db, table, { name: name.slice(table.table.length + 1) });
      const row = rows.find((r) => r.held);
      return row ? this.rowView(table, row, await quartzCheckIns(this.o.db, table)) : null; // a lock table: no held row is free
    }
    const exists = await this.o.db.rows(
      'SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
      [name.slice(0, slash)],
    );
    if (!exists.length) return null;
    const what = `A row of ${name.slice(0, slash)}, a table of no lock shape`;
    return notALockView({
      kind: this.kind,
      source: this.source,
      name,
      what,
      nowMs: this.now(),
      terms: namedTerms({ mariadb: this.mariadb }),
    });
  }

  private async inspectNamed(name: string): Promise<LockView | null> {
    const reading = await this.named();
    const c = this.context();
    const lock = reading.locks.find((l) => namedName(l.name) === name);
    if (lock) return namedView(lock, reading, c);
    const waiter = /^named:([\s\S]*)\/waiter\/(\d+)$/.exec(name);
    const queued = waiter && reading.locks.find((l) => l.name === waiter[1]);
    return queued ? waiterView(queued, waiter[2]!, reading, c) : null;
  }

  async forceRelease(o: ReleaseRequest): Promise<StoreReleaseResult> {
    assertVersion(this, o.version);
    const before = await this.inspect(o.name);
    if (!before) return { outcome: 'gone', current: null, audit: [] };
    if (!before.releasable) return { outcome: 'not-a-lock', current: before, audit: [] };
    const fields = { version: o.version, operator: o.operator, reason: o.reason, format: before.format };
    const words = {
      where: 'in the table lockboard_audit',
      fix: 'have a DBA create it once (the DDL: "lockboard mysql init"), or grant INSERT on it.',
    };
    // the version checked against the lock's own shape before anything is recorded
    const release = await pinnedRelease(this.o.db, { ...o, source: this.source, mariadb: this.mariadb });
    return recordedRelease(
      { lock: o.name, trail: 'lockboard_audit', words, fields, record: (f) => this.record(f) },
      async () => {
        const released = await release();
        const current = released ? null : await this.inspect(o.name);
        return { outcome: released ? 'released' : current ? 'changed' : 'gone', current };
      },
    );
  }

  record(fields: Record<string, string>): Promise<string> {
    return this.trail.record(fields);
  }

  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    return this.trail.read(from, to, lock);
  }

  /** A create-only row of lockboard_claims beside the trail, or its lease (claim.ts): see LockStore. */
  claim(key: string, lease?: ClaimLeasing): Promise<boolean> {
    if (lease) return lease(this.claims);
    return this.claims.claim(key);
  }
}
