// Locks in S3 (docs/stores.md): list, inspect and force-release through the same format registry as GCS, each lock
// judged on S3's own clock, every force-release one DeleteObject with If-Match on the ETag the operator saw, recorded
// in the bucket's audit trail before the delete (nothing is deleted when it cannot be recorded) and after it.
import { refuseAbsentPathName } from '../../objects/object-name';
import type { S3Client } from '@aws-sdk/client-s3';
import type { AuditRecord } from '../../audit/record';
import { ReadLimiter, readLater } from '../../support/later-reads';
import { mapLimit } from '../../support/map-limit';
import { dataReason, needsBody } from '../../objects/formats';
import { inspectView, pendingView } from '../../objects/inspect';
import { DEFAULT_AUDIT_PREFIX } from '../../holding/options';
import { assertVersion, recordedRelease, type LockStore, type LockView, type ReleaseRequest } from '../../store';
import type { ListOptions, StorePage, StoreReleaseResult } from '../../store';
import type { ClaimLeasing } from '../../claim-lease';
import { auditWords, S3AuditTrail } from './audit';
import { s3Claims } from './claim';
import type { ObjectClaims } from '../../objects/claim-objects';
import { s3Status, S3Objects, type S3Body, type S3Listed } from './objects';
import { LOCKBOARD_BODY_LIMIT, objectOf, releasedMarker, s3View } from './view';
import { judge, ReadOnlySourceError } from './release-rules';
import { S3_VERSION } from './version';
import { listAroundTrail } from './list-around';

export interface S3StoreOptions {
  client: S3Client;
  bucket: string;
  /** Key prefix of the source (may be empty). */
  prefix?: string;
  auditPrefix?: string;
  longHeldMs?: number;
  /** Why the source is never cleared (an endpoint without conditional deletes). */
  readOnly?: string;
  close?: () => Promise<void>;
}

/** Lock bodies are tiny: only objects up to this size are read to classify them. */
const READ_LIMIT = 64 * 1024;
/** Parallel GETs while listing. */
const CONCURRENCY = 16;
/** Background body reads of metadata-first listings, across the process. */
const s3Reads = new ReadLimiter(CONCURRENCY);

export class S3LockStore implements LockStore {
  readonly kind = 's3';
  readonly versionShape = S3_VERSION;
  readonly objects: S3Objects;
  readonly prefix: string;
  readonly source: string;
  readonly readOnly?: string;
  private readonly auditPrefix: string;
  private readonly trail: S3AuditTrail;
  private claims: ObjectClaims | undefined;
  /** Bodies (and their metadata) by key and ETag: an ETag is the MD5 of the body, so a cached one is never stale. */
  private readonly bodies = new Map<string, S3Body>();

  constructor(private readonly o: S3StoreOptions) {
    this.objects = new S3Objects(o.client, o.bucket);
    this.prefix = o.prefix ?? '';
    this.source = `s3://${o.bucket}/${this.prefix}`;
    this.auditPrefix = o.auditPrefix ?? DEFAULT_AUDIT_PREFIX;
    this.trail = new S3AuditTrail(this.objects, this.auditPrefix);
    if (o.readOnly) this.readOnly = o.readOnly;
  }

  now(): number {
    return this.objects.now();
  }

  async close(): Promise<void> {
    await this.o.close?.();
  }

  /**
   * One ListObjectsV2 page (1 000 keys), then the bodies the formats need (bounded concurrency); `nextPageToken`
   * continues. Metadata first (`later`): objects whose body is not cached are listed as pending and read in the
   * background.
   */
  async list(pageToken?: string, o: ListOptions = {}): Promise<StorePage> {
    const { items, next, first } = await listAroundTrail(
      this.objects,
      this.prefix,
      this.auditPrefix,
      pageToken,
      o.pageSize,
    );
    const listed = items.filter((i) => !i.key.startsWith(this.auditPrefix));
    this.keepBodiesOf(listed, first, next);
    const later = o.later;
    const deferred = later ? listed.filter((item) => this.wantsBody(item)) : [];
    const pending = new Set(deferred);
    const views = await mapLimit(listed, CONCURRENCY, async (item) =>
      pending.has(item) ? this.pendingOf(item) : this.viewOf(item),
    );
    if (later && deferred.length) {
      readLater(
        deferred,
        s3Reads,
        (item) => this.viewOf(item, true),
        (read) =>
          later({
            views: read.filter((v) => v.releasable),
            dropped: read.filter((v) => !v.releasable).map((v) => v.name),
          }),
      ).catch(() => undefined); // a body that cannot be read now stays pending: the next listing reads it again
    }
    const locks = views.filter((v) => v.releasable || v.pending);
    const serverTime = new Date(this.objects.now()).toISOString();
    return {
      locks,
      skipped: views.length - locks.length,
      serverTime,
      ...(next ? { nextPageToken: next } : {}),
    };
  }

  private seenThisPass = new Set<string>();

  /** Once a whole pass over the prefix is done, drops the bodies of what no longer exists (a refresh is a new ETag). */
  private keepBodiesOf(listed: S3Listed[], first: boolean, next: string | undefined): void {
    if (first) this.seenThisPass = new Set();
    for (const i of listed) this.seenThisPass.add(`${i.key}\u0000${i.etag}`);
    if (next) return;
    for (const k of this.bodies.keys()) if (!this.seenThisPass.has(k)) this.bodies.delete(k);
  }

  /** Whether listing this object needs a body not read yet (Lockboard's S3 lock keeps its fields in a small JSON body; other formats say what they need). */
  private wantsBody(item: S3Listed): boolean {
    if (this.bodies.get(`${item.key}\u0000${item.etag}`) || item.size > READ_LIMIT) return false;
    const probe = objectOf(item, undefined, this.o.bucket).view;
    return item.size <= LOCKBOARD_BODY_LIMIT ? dataReason(probe) === null && !item.key.endsWith('/') : needsBody(probe);
  }

  private pendingOf(item: S3Listed): LockView {
    const { view, id } = objectOf(item, undefined, this.o.bucket);
    return s3View(pendingView(view, id, this.objects.now()), this.source, item.etag, item.lastModifiedMs);
  }

  /** The object under `key` now (a lock, or not one), or null when there is no such object. */
  async inspect(key: string): Promise<LockView | null> {
    const body = await this.objects.get(key);
    if (!body) return (refuseAbsentPathName(this.source, key), null);
    this.bodies.set(`${key}\u0000${body.etag}`, body);
    return this.viewOf({ key, etag: body.etag, lastModifiedMs: body.lastModifiedMs, size: body.body.length });
  }

  /** `wanted`: already known to need a body not read yet (a metadata-first listing decided it). */
  private async viewOf(item: S3Listed, wanted?: boolean): Promise<LockView> {
    let body = this.bodies.get(`${item.key}\u0000${item.etag}`);
    if (wanted ? !body : this.wantsBody(item)) {
      body = (await this.objects.get(item.key)) ?? undefined;
      if (body) this.bodies.set(`${item.key}\u0000${body.etag}`, body);
    }
    // the object may have changed between the listing and the read: describe what was read
    const seen =
      body && body.etag === item.etag ? item : body ? { ...item, etag: body.etag, size: body.body.length } : item;
    const { view, id } = objectOf(seen, body, this.o.bucket);
    const info = inspectView(view, id, this.objects.now(), this.o.longHeldMs);
    return s3View(info, this.source, seen.etag, seen.lastModifiedMs);
  }

  /** One DeleteObject with If-Match on the ETag seen (a Lockboard lock: one conditional PUT of its released marker). */
  async forceRelease(r: ReleaseRequest): Promise<StoreReleaseResult> {
    assertVersion(this, r.version);
    const etag = `"${r.version.split('.')[0]}"`;
    const before = await this.inspect(r.name);
    if (!before) return { outcome: 'gone', current: null, audit: [] };
    if (!before.releasable) return { outcome: 'not-a-lock', current: before, audit: [] };
    if (this.readOnly) throw new ReadOnlySourceError(this.source, this.readOnly);
    if (before.version !== r.version) return { outcome: judge(before, r), current: before, audit: [] };
    // A released marker holds nothing: rewriting it would only change its ETag, so nothing is written
    if (before.health === 'free') return { outcome: 'gone', current: before, audit: [] };
    const fields = { version: before.version, operator: r.operator, reason: r.reason, format: before.format };
    const record = (f: Record<string, string>) => this.record(f);
    const words = auditWords(this.auditPrefix);
    return recordedRelease({ lock: r.name, trail: this.auditPrefix, words, fields, record }, async () => {
      let outcome: StoreReleaseResult['outcome'] = 'released';
      try {
        if (before.format === 'lockboard') await this.objects.put(r.name, releasedMarker(before), { ifMatch: etag });
        else await this.objects.delete(r.name, etag);
      } catch (err) {
        const status = s3Status(err);
        if (status === 412 || status === 409) outcome = 'changed';
        else if (status === 404) outcome = 'gone';
        else throw err;
      }
      const current = outcome === 'released' ? null : await this.inspect(r.name);
      if (outcome === 'changed' && current) outcome = judge(current, { ...r, version: before.version });
      return { outcome, current };
    }).then((result) => (result.outcome === 'released' ? { ...result, released: before } : result));
  }

  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    return this.trail.read(from, to, lock);
  }

  record(fields: Record<string, string>): Promise<string> {
    return this.trail.record(fields);
  }

  /** A create-only marker under the audit prefix (If-None-Match: *), or its lease (claim.ts): see LockStore. */
  async claim(key: string, lease?: ClaimLeasing): Promise<boolean> {
    if (lease) return lease((this.claims ??= s3Claims(this.objects, this.auditPrefix)));
    try {
      await this.objects.put(`${this.auditPrefix}claims/${key}.json`, '{}', { ifNoneMatch: '*' });
      return true;
    } catch (err) {
      if (s3Status(err) === 412 || s3Status(err) === 409) return false;
      throw err;
    }
  }
}
