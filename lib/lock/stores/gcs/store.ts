// Locks in Cloud Storage through the one LockStore interface: one objects.list per 1 000 objects and page, the
// force-release conditioned on generation and metageneration (refreshed / confirmed: false as GCS answers them), the
// audit trail as objects in the bucket.
import { hasDotSegments, refuseAbsentPathName } from '../../objects/object-name';
import type { Storage } from '@google-cloud/storage';
import type { AuditRecord } from '../../audit/record';
import type { ClaimLeasing } from '../../claim-lease';
import { DEFAULT_AUDIT_PREFIX } from '../../holding/options';
import { assertVersion, type LockStore, type LockView, type ReleaseRequest, type StorePage } from '../../store';
import type { ChangeFeed, ChangeFeedHandlers, ListOptions, StoreReleaseResult } from '../../store';
import type { LockInfo } from '../../types';
import { AuditWriter } from './audit';
import { listAuditEvents } from './audit-read';
import { gapPage, trailGap } from '../../objects/around-trail';
import { gcsClaims } from './claim';
import type { ObjectClaims } from '../../objects/claim-objects';
import { BucketObjects, statusOf } from './client';
import { forceReleaseLock } from './force-release';
import { startGcsFeed } from './feed';
import { getLock, listLocks } from './list';
import { observeNotification, type GcsNotification, type Observation } from './notifications';
import { GCS_VERSION } from './version';
import { gcsView } from './view';

export interface GcsStoreOptions {
  storage: Storage;
  bucket: string;
  prefix?: string;
  auditPrefix?: string;
  longHeldMs?: number;
  /** Called once per objects.list call (metrics). */
  onListCall?: () => void;
  /** host:port of a Pub/Sub emulator for the change feed (PUBSUB_EMULATOR_HOST). */
  pubsubEmulatorHost?: string;
}

export class GcsLockStore implements LockStore {
  readonly kind = 'gcs';
  readonly source: string;
  readonly versionShape = GCS_VERSION;
  private readonly objects: BucketObjects;
  private readonly prefix: string;
  private readonly auditPrefix: string;
  private readonly claims: ObjectClaims;

  constructor(private readonly o: GcsStoreOptions) {
    this.prefix = o.prefix ?? '';
    this.auditPrefix = o.auditPrefix ?? DEFAULT_AUDIT_PREFIX;
    this.source = `gs://${o.bucket}/${this.prefix}`;
    this.objects = new BucketObjects(o.storage, o.bucket);
    this.claims = gcsClaims(this.objects, this.auditPrefix);
  }

  now(): number {
    return this.objects.clock.now();
  }

  async close(): Promise<void> {}

  async list(pageToken?: string, o: ListOptions = {}): Promise<StorePage> {
    this.o.onListCall?.();
    const later = o.later && this.laterFor(o.later);
    const one = (token: string | undefined, range: object = {}) =>
      listLocks({
        ...this.base(),
        prefix: this.prefix,
        pageToken: token,
        ...range,
        ...(o.pageSize ? { maxResults: o.pageSize } : {}),
        ...(later ? { later } : {}),
      });
    // The audit trail under the source is listed around, never read (its objects are no locks); the range after it
    // follows at once when the one before it ends, so a small bucket is still one page
    const gap = trailGap(this.prefix, this.auditPrefix);
    const around = gap && gapPage(gap, pageToken);
    let page = await one(around ? around.token : pageToken, around?.range);
    let next = around ? around.next(page.nextPageToken) : page.nextPageToken;
    if (gap && next === 'b:') {
      const after = gapPage(gap, next);
      const rest = await one(undefined, after.range);
      page = { ...rest, locks: [...page.locks, ...rest.locks], skipped: [...page.skipped, ...rest.skipped] };
      next = after.next(rest.nextPageToken);
    }
    // A source inside the trail itself (its prefix under the audit prefix) still never lists audit objects as locks
    const audit = page.locks.filter((l) => l.name.startsWith(this.auditPrefix)).length;
    return {
      locks: page.locks.filter((l) => !l.name.startsWith(this.auditPrefix)).map((l) => this.view(l)),
      skipped: page.skipped.length + audit,
      serverTime: page.serverTime,
      ...(next ? { nextPageToken: next } : {}),
    };
  }

  /** The bucket's notification topic through a pull subscription of this process, if the bucket has one. */
  changes(handlers: ChangeFeedHandlers): Promise<ChangeFeed | null> {
    const { storage, bucket, pubsubEmulatorHost } = this.o;
    const o = { storage, bucket, prefix: this.prefix, auditPrefix: this.auditPrefix, pubsubEmulatorHost };
    return startGcsFeed(o, handlers);
  }

  async inspect(name: string): Promise<LockView | null> {
    const lock = await getLock({ ...this.base(), name });
    if (!lock) refuseAbsentPathName(this.source, name);
    return lock && this.view(lock);
  }

  async forceRelease(r: ReleaseRequest): Promise<StoreReleaseResult> {
    assertVersion(this, r.version);
    // "../x" for no object: refused before the attempt is recorded (an object really named so is released as usual)
    if (hasDotSegments(r.name)) await this.inspect(r.name);
    const [generation, metageneration] = r.version.split('.') as [string, string | undefined];
    const result = await forceReleaseLock({
      storage: this.o.storage,
      bucket: this.o.bucket,
      name: r.name,
      generation,
      metageneration,
      audit: { prefix: this.auditPrefix, operator: r.operator, reason: r.reason },
    });
    const audit = [result.audit?.attempt, result.audit?.outcome].filter((a): a is string => Boolean(a));
    return {
      outcome: result.outcome,
      current: result.current ? this.view(result.current) : null,
      audit,
      ...(result.audit ? { recorded: { attempt: result.audit.attempt, outcome: result.audit.outcome } } : {}),
      ...(result.confirmed === false ? { confirmed: false } : {}),
      ...(result.audit?.outcomeError ? { auditError: result.audit.outcomeError } : {}),
    };
  }

  async readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    const { events, listCalls } = await listAuditEvents({
      storage: this.o.storage,
      bucket: this.o.bucket,
      auditPrefix: this.auditPrefix,
      from,
      to,
      lock,
    });
    for (let i = 0; i < listCalls; i++) this.o.onListCall?.();
    return events;
  }

  record(fields: Record<string, string>): Promise<string> {
    return new AuditWriter(this.objects, this.auditPrefix).recordNow(fields as never);
  }

  /** A create-only marker under the audit prefix (ifGenerationMatch=0), or its lease (claim.ts): see LockStore. */
  async claim(key: string, lease?: ClaimLeasing): Promise<boolean> {
    if (lease) return lease(this.claims);
    try {
      await this.objects.create(`${this.auditPrefix}claims/${key}.json`, '{}', {}, { ifGenerationMatch: 0 });
      return true;
    } catch (err) {
      if (statusOf(err) === 412) return false;
      throw err;
    }
  }

  /** The change feed: one Cloud Storage notification about this bucket, recorded in its audit trail. */
  observe(n: GcsNotification): Promise<Observation> {
    return observeNotification(n, { storage: this.o.storage, auditPrefix: this.auditPrefix });
  }

  /** Read bodies as views; what is not a lock (or is audit) is dropped from the listing. */
  private laterFor(later: NonNullable<ListOptions['later']>) {
    return (infos: LockInfo[]) => {
      const keep = (l: LockInfo) => l.releasable && !l.name.startsWith(this.auditPrefix);
      later({
        views: infos.filter(keep).map((l) => this.view(l)),
        dropped: infos.filter((l) => !keep(l)).map((l) => l.name),
      });
    };
  }

  private base() {
    return { storage: this.o.storage, bucket: this.o.bucket, longHeldMs: this.o.longHeldMs };
  }

  private view(lock: LockInfo): LockView {
    return gcsView(lock, this.source);
  }
}
