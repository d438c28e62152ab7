// Locks in DynamoDB (docs/stores.md): one table, listed by Scan in 1 MB pages (a page token per page), each item read
// in its format; force-released by one DeleteItem whose ConditionExpression pins exactly what was read, recorded in the
// audit table before (refused when it cannot be) and after.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AuditRecord } from '../../audit/record';
import { assertVersion, notALockView, recordedRelease, type LockStore, type LockView } from '../../store';
import type { ReleaseRequest, StorePage, StoreReleaseResult } from '../../store';
import type { ClaimLeasing } from '../../claim-lease';
import { DynamoClaims } from './claim';
import { DynamoAuditTrail } from './audit';
import { DEFAULT_AUDIT_TABLE } from './source';
import { readItem, sameOwner, versionOf, type DynamoReading } from './formats';
import { scanPage } from './scan-pages';
import { DynamoTable } from './table';
import { DYNAMODB_VERSION } from './version';
import { dynamoView, type FirstSeen } from './view';

export interface DynamoStoreOptions {
  client: DynamoDBClient;
  table: string;
  auditTable?: string;
  longHeldMs?: number;
  close?: () => Promise<void>;
}

export class DynamoLockStore implements LockStore {
  readonly kind = 'dynamodb';
  readonly versionShape = DYNAMODB_VERSION;
  readonly source: string;
  readonly table: DynamoTable;
  private readonly trail: DynamoAuditTrail;
  private readonly claims: DynamoClaims;
  private readonly firstSeen = new Map<string, FirstSeen>();
  private readonly latest = new Map<string, string>();
  /** The listing pass under way: a first sighting not renewed by a whole pass is forgotten. */
  private pass = 0;

  constructor(private readonly o: DynamoStoreOptions) {
    this.table = new DynamoTable(o.client, o.table);
    this.trail = new DynamoAuditTrail(this.table, o.auditTable ?? DEFAULT_AUDIT_TABLE);
    this.claims = new DynamoClaims(this.table, this.trail.name);
    this.source = `dynamodb://${o.table}`;
  }

  now(): number {
    return this.table.clock.now();
  }

  async close(): Promise<void> {
    await this.o.close?.();
  }

  /** One page of a parallel Scan (1 MB of each segment); the token carries each segment's LastEvaluatedKey. */
  async list(pageToken?: string): Promise<StorePage> {
    const keys = await this.table.keys();
    if (!pageToken) this.pass++;
    const page = await scanPage(this.table, pageToken);
    const locks: LockView[] = [];
    let skipped = 0;
    for (const item of page.items) {
      const read = readItem(item, keys);
      if (read.kind === 'lock') locks.push(this.view(read.reading));
      else skipped++;
    }
    if (!page.next) this.pruneSeen();
    return {
      locks,
      skipped,
      serverTime: new Date(this.now()).toISOString(),
      ...(page.next ? { nextPageToken: page.next } : {}),
    };
  }

  async inspect(name: string): Promise<LockView | null> {
    const item = await this.table.get(name);
    if (!item) return null;
    const read = readItem(item, await this.table.keys());
    if (read.kind === 'lock') return this.view(read.reading);
    return notALockView({
      kind: this.kind,
      source: this.source,
      name,
      what: `An item that is ${read.why}`,
      nowMs: this.now(),
      terms: {
        storeLabel: 'DynamoDB',
        versionName: '—',
        since: 'Seen since',
        liveness: '—',
        effect: '—',
        rule: '—',
        trail: '—',
      },
    });
  }

  /** One DeleteItem conditioned on exactly what was read, audited before and after. */
  async forceRelease(r: ReleaseRequest): Promise<StoreReleaseResult> {
    assertVersion(this, r.version);
    const before = await this.read(r.name);
    if (!before) return { outcome: 'gone', current: null, audit: [] };
    if (before.kind === 'skip') return { outcome: 'not-a-lock', current: await this.inspect(r.name), audit: [] };
    if (versionOf(before.reading) !== r.version) {
      const current = this.view(before.reading);
      return { outcome: judge(before.reading, r), current, audit: [] };
    }
    const fields = { version: r.version, operator: r.operator, reason: r.reason, format: before.reading.format };
    const record = (f: Record<string, string>) => this.record(f);
    const words = {
      where: `in the DynamoDB audit table "${this.trail.name}"`,
      fix: 'create it with "lockboard dynamodb init", or grant dynamodb:PutItem on it.',
    };
    return recordedRelease({ lock: r.name, trail: this.trail.name, words, fields, record }, async () => {
      if (await this.table.deleteIf(r.name, before.reading.pinned)) return { outcome: 'released', current: null };
      const now = await this.read(r.name);
      if (!now) return { outcome: 'gone', current: null };
      const current = now.kind === 'lock' ? this.view(now.reading) : await this.inspect(r.name);
      return { outcome: now.kind === 'lock' ? judge(now.reading, r) : 'changed', current };
    }).then((result) => (result.outcome === 'released' ? { ...result, released: this.view(before.reading) } : result));
  }

  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    return this.trail.read(from, to, lock);
  }

  /** A create-only marker in the audit table, or its lease (claim.ts): see LockStore. */
  claim(key: string, lease?: ClaimLeasing): Promise<boolean> {
    if (lease) return lease(this.claims);
    return this.claims.claim(key);
  }

  record(fields: Record<string, string>): Promise<string> {
    return this.trail.record(fields);
  }

  private async read(name: string) {
    const item = await this.table.get(name);
    return item && readItem(item, await this.table.keys());
  }

  private view(r: DynamoReading): LockView {
    return dynamoView(r, {
      source: this.source,
      now: this.now(),
      firstSeen: this.firstSeen,
      latest: this.latest,
      pass: this.pass,
      longHeldMs: this.o.longHeldMs,
    });
  }

  /**
   * After a whole listing: forget first sightings of versions that neither this pass nor the one before saw (two, so
   * that a listing interleaved with another, the console's and a direct one, never forgets what it just read).
   */
  private pruneSeen(): void {
    for (const [k, v] of this.firstSeen) if ((v.pass ?? 0) < this.pass - 1) this.firstSeen.delete(k);
    for (const [name, version] of this.latest)
      if (!this.firstSeen.has(`${name}\u0000${version}`)) this.latest.delete(name);
  }
}

/** A newer version: the same owner's heartbeat (a lease client) is alive; anything else is a successor. */
function judge(current: DynamoReading, seen: ReleaseRequest): 'refreshed' | 'changed' {
  return sameOwner(seen.version, current) ? 'refreshed' : 'changed';
}
