// Locks in Azure Blob Storage (docs/stores.md): one List Blobs with metadata per 5 000 blobs (lease state, duration and
// lock info of each, no body, never a request per blob), each lock judged on Azure's clock, every force-release the
// one conditional mutation of its kind (release.ts), recorded in the container's trail before and after.
import type { ClaimLeasing } from '../../claim-lease';
import { azureClaims } from './claim';
import type { AuditRecord } from '../../audit/record';
import { notALockView } from '../../not-a-lock';
import { refuseAbsentPathName } from '../../objects/object-name';
import { DEFAULT_AUDIT_PREFIX } from '../../holding/options';
import { assertVersion, recordedRelease, type LockStore, type LockView, type ReleaseRequest } from '../../store';
import type { StorePage, StoreReleaseResult } from '../../store';
import { AzureAuditTrail, auditWords } from './audit';
import { azureStatus } from './errors';
import type { AzureBlobs, AzureListed } from './blobs';
import { classifyBlob, type AzureReading } from './formats';
import { breakUnknownLease, releaseWithLeaseId } from './release';
import { fieldsOf, judge, judgeView } from './release-rules';
import { AZURE_VERSION, parseAzureVersion, type AzureVersion } from './version';
import { azureView, renewedFor, type ViewContext } from './view';
import { NOT_A_LOCK_TERMS } from './words';

export interface AzureStoreOptions {
  blobs: AzureBlobs;
  account: string;
  container: string;
  prefix?: string;
  auditPrefix?: string;
  longHeldMs?: number;
  /** The longest fixed lease Azure grants (60 s): a fixed lease held longer is being renewed. Tests shorten it. */
  maxFixedLeaseMs?: number;
  close?: () => Promise<void>;
}

export class AzureLockStore implements LockStore {
  readonly kind = 'azure';
  readonly versionShape = AZURE_VERSION;
  readonly source: string;
  readonly prefix: string;
  private readonly auditPrefix: string;
  private readonly trail: AzureAuditTrail;
  private readonly firstSeen = new Map<string, number>();

  constructor(private readonly o: AzureStoreOptions) {
    this.prefix = o.prefix ?? '';
    this.source = `azure://${o.account}/${o.container}/${this.prefix}`;
    this.auditPrefix = o.auditPrefix ?? DEFAULT_AUDIT_PREFIX;
    this.trail = new AzureAuditTrail(o.blobs, this.auditPrefix);
  }

  now(): number {
    return this.o.blobs.now();
  }

  async close(): Promise<void> {
    await this.o.close?.();
  }

  private context(): ViewContext {
    return {
      source: this.source,
      container: this.o.container,
      now: this.now(),
      firstSeen: this.firstSeen,
      ...(this.o.longHeldMs !== undefined ? { longHeldMs: this.o.longHeldMs } : {}),
      ...(this.o.maxFixedLeaseMs !== undefined ? { maxFixedLeaseMs: this.o.maxFixedLeaseMs } : {}),
    };
  }

  /** One List Blobs page with metadata; the audit trail's blobs are never locks. */
  async list(pageToken?: string, o: { pageSize?: number } = {}): Promise<StorePage> {
    const page = await this.o.blobs.list(this.prefix, pageToken, o.pageSize);
    const c = this.context();
    const locks: LockView[] = [];
    let skipped = 0;
    for (const b of page.items) {
      const cls = b.name.startsWith(this.auditPrefix) ? null : classifyBlob(b, this.o.container);
      // a free Lockboard lock blob is no lock now and no data either: neither listed nor counted
      if (cls?.kind === 'free') continue;
      if (cls?.kind === 'lock') locks.push(azureView(cls.reading, b, c));
      else skipped++;
    }
    if (!page.next) this.forgetUnseen(locks);
    return {
      locks,
      skipped,
      serverTime: new Date(this.now()).toISOString(),
      ...(page.next ? { nextPageToken: page.next } : {}),
    };
  }

  /** After a pass's last page: first-seen times of versions no longer there are dropped (a small map, not a leak). */
  private forgetUnseen(last: LockView[]): void {
    if (this.firstSeen.size < 10_000) return;
    const keep = new Set(last.map((l) => `${l.name}\u0000${l.version}`));
    for (const k of this.firstSeen.keys()) if (!keep.has(k)) this.firstSeen.delete(k);
  }

  async inspect(name: string): Promise<LockView | null> {
    const b = await this.o.blobs.head(name);
    if (!b) refuseAbsentPathName(this.source, name);
    return b ? this.viewOf(b) : null;
  }

  /** The view of a blob; null for a free Lockboard lock blob (nobody holds it: status says free). */
  private viewOf(b: AzureListed): LockView | null {
    const cls = b.name.startsWith(this.auditPrefix)
      ? { kind: 'skip' as const, why: 'a Lockboard audit event' }
      : classifyBlob(b, this.o.container);
    if (cls.kind === 'lock') return azureView(cls.reading, b, this.context());
    if (cls.kind === 'free') return null;
    const what = `${cls.why.charAt(0).toUpperCase()}${cls.why.slice(1)}`;
    const view = notALockView({
      kind: 'azure',
      source: this.source,
      name: b.name,
      what,
      nowMs: this.now(),
      terms: NOT_A_LOCK_TERMS,
      size: b.size,
    });
    return { ...view, metadata: b.metadata };
  }

  async forceRelease(r: ReleaseRequest): Promise<StoreReleaseResult> {
    assertVersion(this, r.version);
    const seen = parseAzureVersion(r.version);
    const b = await this.o.blobs.head(r.name);
    if (!b) refuseAbsentPathName(this.source, r.name);
    if (!b) return { outcome: 'gone', current: null, audit: [] };
    const cls = b.name.startsWith(this.auditPrefix) ? null : classifyBlob(b, this.o.container);
    if (cls?.kind === 'free') return { outcome: 'gone', current: null, audit: [] };
    if (cls?.kind !== 'lock') {
      // a lock this trail released (its blob kept, with no lease and no lock info) is gone, not "not a lock" (#48)
      if (cls && (await this.trail.released(r.name, r.version, this.now())))
        return { outcome: 'gone', current: null, audit: [] };
      return { outcome: 'not-a-lock', current: this.viewOf(b), audit: [] };
    }
    const before = azureView(cls.reading, b, this.context());
    if (before.version !== r.version) return { outcome: judge(cls.reading, seen), current: before, audit: [] };
    const fields = fieldsOf(before, cls.reading, r);
    const words = auditWords(this.auditPrefix);
    const record = (f: Record<string, string>) => this.record(f);
    let detail: string | undefined;
    const result = await recordedRelease({ lock: r.name, trail: this.auditPrefix, words, fields, record }, async () => {
      const done = await this.mutate(cls.reading, b, seen);
      detail = done.detail;
      const current = done.outcome === 'released' ? null : await this.inspect(r.name);
      const outcome = done.outcome === 'changed' && current?.releasable ? judgeView(current, seen) : done.outcome;
      return { outcome, current: current?.releasable ? current : null };
    });
    return { ...result, ...(detail ? { detail } : {}), ...(result.outcome === 'released' ? { released: before } : {}) };
  }

  private async mutate(reading: AzureReading, b: AzureListed, seen: AzureVersion) {
    const renewed = renewedFor(reading, b, this.context());
    if (renewed !== null)
      return {
        outcome: 'refreshed' as const,
        detail: `held by a live renewer: this fixed lease has been held for ${Math.round(renewed / 1000)} s, longer than a fixed lease lasts without renewal, so it was not broken`,
      };
    if (seen.leaseId) return releaseWithLeaseId(this.o.blobs, b, seen);
    return breakUnknownLease(this.o.blobs, b.name, seen);
  }

  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    return this.trail.read(from, to, lock);
  }

  record(fields: Record<string, string>): Promise<string> {
    return this.trail.record(fields);
  }

  /** A create-only marker beside the trail (a blob put with If-None-Match: *), or its lease (claim.ts): see LockStore. */
  async claim(key: string, lease?: ClaimLeasing): Promise<boolean> {
    if (lease) return lease(azureClaims(this.o.blobs, this.auditPrefix));
    try {
      await this.o.blobs.upload(`${this.auditPrefix}claims/${key}.json`, '{}', { ifNoneMatch: '*' });
      return true;
    } catch (err) {
      if (azureStatus(err) === 409 || azureStatus(err) === 412) return false;
      throw err;
    }
  }
}
