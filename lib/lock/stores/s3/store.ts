// Locks in S3 (stores.md): list, inspect and force-release through the same format registry as GCS, each lock judged
// on S3's own clock, every force-release one DeleteObject with If-Match on the ETag the operator saw, recorded in the
// bucket's audit trail before the delete (nothing is deleted when it cannot be recorded) and after it.
import type { S3Client } from '@aws-sdk/client-s3';
import { auditObjectName } from '../../objects/audit-names';
import { dataReason, needsBody } from '../../objects/formats';
import { inspectLock, objectViewOf } from '../../objects/inspect';
import { DEFAULT_AUDIT_PREFIX } from '../../options';
import { recordedRelease, type LockView, type StoreList, type StoreReleaseResult } from '../../store';
import { AUDIT_STRING_FIELDS, type AuditRecord } from '../../audit-record';
import type { GcsObjectResource } from '../../types';
import { s3Status, S3Objects, type S3Body, type S3Listed } from './objects';

export interface S3StoreOptions {
  client: S3Client;
  bucket: string;
  /** Key prefix of the source (may be empty). */
  prefix?: string;
  auditPrefix?: string;
  longHeldMs?: number;
}

/** Lock bodies are tiny: only objects up to this size are read to classify them. */
const READ_LIMIT = 64 * 1024;
/** Lockboard's S3 lock bodies are under 1 KiB: objects this small are read to find them. */
const LOCKBOARD_BODY_LIMIT = 4096;
/** Parallel GETs while listing. */
const CONCURRENCY = 16;

export class S3LockStore {
  readonly objects: S3Objects;
  readonly prefix: string;
  readonly source: string;
  private readonly auditPrefix: string;
  /** Bodies (and their metadata) by key and ETag: an ETag is the MD5 of the body, so a cached one is never stale. */
  private readonly bodies = new Map<string, S3Body>();
  /** Audit events by key (immutable once written). */
  private readonly events = new Map<string, AuditRecord | null>();

  constructor(private readonly o: S3StoreOptions) {
    this.objects = new S3Objects(o.client, o.bucket);
    this.prefix = o.prefix ?? '';
    this.source = `s3://${o.bucket}/${this.prefix}`;
    this.auditPrefix = o.auditPrefix ?? DEFAULT_AUDIT_PREFIX;
  }

  now(): number {
    return this.objects.now();
  }

  async list(): Promise<StoreList> {
    const listed: S3Listed[] = [];
    let token: string | undefined;
    do {
      const page = await this.objects.list(this.prefix, token);
      listed.push(...page.items.filter((i) => !i.key.startsWith(this.auditPrefix)));
      token = page.next;
    } while (token);
    const views = await mapLimit(listed, CONCURRENCY, (item) => this.viewOf(item));
    // keep only the bodies of what exists now: every refresh of a lock is a new ETag
    const live = new Set(listed.map((i) => `${i.key}\u0000${i.etag}`));
    for (const k of this.bodies.keys()) if (!live.has(k)) this.bodies.delete(k);
    const locks = views.filter((v) => v.releasable);
    return { locks, skipped: views.length - locks.length, serverTime: new Date(this.objects.now()).toISOString() };
  }

  /** The lock under `key` now, or null when there is no such object. */
  async inspect(key: string): Promise<LockView | null> {
    const body = await this.objects.get(key);
    if (!body) return null;
    this.bodies.set(`${key}\u0000${body.etag}`, body);
    return this.viewOf({ key, etag: body.etag, lastModifiedMs: body.lastModifiedMs, size: body.body.length });
  }

  private async viewOf(item: S3Listed): Promise<LockView> {
    let body = this.bodies.get(`${item.key}\u0000${item.etag}`);
    const probe = objectViewOf(resourceOf(item, undefined));
    // Lockboard's S3 lock keeps its fields in a small JSON body; other formats say what they need
    const wanted =
      item.size <= LOCKBOARD_BODY_LIMIT ? dataReason(probe) === null && !item.key.endsWith('/') : needsBody(probe);
    if (!body && item.size <= READ_LIMIT && wanted) {
      body = (await this.objects.get(item.key)) ?? undefined;
      if (body) this.bodies.set(`${item.key}\u0000${body.etag}`, body);
    }
    // the object may have changed between the listing and the read: describe what was read
    const seen =
      body && body.etag === item.etag ? item : body ? { ...item, etag: body.etag, size: body.body.length } : item;
    const info = inspectLock(resourceOf(seen, body), this.objects.now(), {
      bucket: this.o.bucket,
      body: body?.body,
      longHeldMs: this.o.longHeldMs,
    });
    return s3View(info, this.source, seen.etag, seen.lastModifiedMs);
  }

  /** One DeleteObject with If-Match on the ETag seen (a Lockboard lock: one conditional PUT of its released marker). */
  async forceRelease(o: {
    name: string;
    version: string;
    reason: string;
    operator: string;
    /** The owner the operator saw: a newer version by the same owner is `refreshed` (alive), not `changed`. */
    identity?: string;
  }): Promise<StoreReleaseResult> {
    const etag = `"${o.version.split('.')[0]}"`;
    const before = await this.inspect(o.name);
    if (!before) return { outcome: 'gone', current: null, audit: [] };
    if (!before.releasable) return { outcome: 'not-a-lock', current: before, audit: [] };
    if (before.version !== o.version) {
      const refreshed =
        before.format === 'lockboard' && before.identity !== undefined && o.identity === before.identity;
      return { outcome: refreshed ? 'refreshed' : 'changed', current: before, audit: [] };
    }
    const fields = { version: before.version, operator: o.operator, reason: o.reason, format: before.format };
    const trail = {
      lock: o.name,
      trail: this.auditPrefix,
      fields,
      record: (f: Record<string, string>) => this.record(f),
    };
    return recordedRelease(trail, async () => {
      let outcome: StoreReleaseResult['outcome'] = 'released';
      try {
        if (before.format === 'lockboard') await this.objects.put(o.name, releasedMarker(before), { ifMatch: etag });
        else await this.objects.delete(o.name, etag);
      } catch (err) {
        const status = s3Status(err);
        if (status === 412 || status === 409) outcome = 'changed';
        else if (status === 404) outcome = 'gone';
        else throw err;
      }
      const current = outcome === 'released' ? null : await this.inspect(o.name);
      if (outcome === 'changed' && current && current.identity === before.identity && current.format === 'lockboard')
        outcome = 'refreshed'; // the same holder wrote again: it is alive
      return { outcome, current };
    });
  }

  /**
   * Audit events of [from, to): one ListObjectsV2 per 1 000 events under each day's prefix, and one GET per event
   * not read before (an event never changes, so its body is cached by key).
   */
  async readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    const out: AuditRecord[] = [];
    const keys: string[] = [];
    for (
      let d = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
      d < to.getTime();
      d += 86_400_000
    ) {
      const day = auditObjectName(this.auditPrefix, d).replace(/\d{2}\/[^/]+$/, '');
      let token: string | undefined;
      do {
        const page = await this.objects.list(day, token);
        keys.push(...page.items.map((i) => i.key));
        token = page.next;
      } while (token);
    }
    const [lo, hi] = [
      auditObjectName(this.auditPrefix, from.getTime()),
      auditObjectName(this.auditPrefix, to.getTime()),
    ];
    const wanted = keys.filter((k) => k.slice(0, -14) >= lo.slice(0, -14) && k.slice(0, -14) < hi.slice(0, -14));
    const records = await mapLimit(wanted, CONCURRENCY, async (key) => {
      let record = this.events.get(key);
      if (!record) {
        const body = await this.objects.get(key);
        record = body ? (auditRecordOf(key, body.body) ?? null) : null;
        this.events.set(key, record);
      }
      return record;
    });
    for (const r of records) if (r && (!lock || r.lock === lock)) out.push(r);
    return out;
  }

  /** One audit event: a JSON object under the audit prefix, created only if absent. */
  async record(fields: Record<string, string>): Promise<string> {
    const name = auditObjectName(this.auditPrefix, this.objects.now());
    await this.objects.put(name, JSON.stringify({ ...fields, at: new Date(this.objects.now()).toISOString() }), {
      ifNoneMatch: '*',
    });
    return name;
  }
}

/** An S3 object as the format registry sees it: Lockboard's S3 lock keeps its fields in its JSON body. */
function resourceOf(item: S3Listed, body: S3Body | undefined): GcsObjectResource {
  const fields = body ? lockboardFields(body.body) : undefined;
  const acquired = Number(fields?.acquired_ms);
  return {
    name: item.key,
    generation: fields?.token ?? '0',
    metageneration: fields?.seq ?? '1',
    timeCreated: new Date(Number.isFinite(acquired) && acquired > 0 ? acquired : item.lastModifiedMs).toISOString(),
    updated: new Date(item.lastModifiedMs).toISOString(),
    size: item.size,
    metadata: fields ?? body?.metadata ?? {},
  };
}

/** The string fields of a Lockboard S3 lock body (`format: lockboard/1`), or undefined for any other body. */
export function lockboardFields(body: Buffer): Record<string, string> | undefined {
  if (body.length > LOCKBOARD_BODY_LIMIT || body[0] !== 0x7b) return undefined;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    if (parsed.format !== 'lockboard/1') return undefined;
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
  } catch {
    return undefined;
  }
}

function s3View(info: ReturnType<typeof inspectLock>, source: string, etag: string, lastModifiedMs: number): LockView {
  const hex = etag.replace(/"/g, '');
  // ETag + LastModified: a lock rewritten with the same bytes (a plain "lock" body) has the same ETag but not the
  // same LastModified, so a release prepared on the old one is refused on the re-read before the DeleteObject
  const version = `${hex}.${lastModifiedMs}`;
  const view: LockView = { ...info, store: 's3', source, version, versionLabel: `ETag ${hex.slice(0, 8)}` };
  if (info.format === 'lockboard') view.versionLabel += ` · token ${info.generation}`;
  if (info.format === 'terraform') {
    const id = info.details.find(([label]) => label === 'Terraform lock info ID')?.[1];
    view.releaseNote =
      `Deletes the .tflock object only if it is still the version you saw (DeleteObject If-Match), unlike ` +
      `\`terraform force-unlock ${id ?? '<ID>'}\`, which deletes whatever is there. If the run that holds it is ` +
      'still applying, two applies can then write the state at once.';
    if (id) view.details = [...view.details, ['Equivalent command', `terraform force-unlock ${id}`]];
  } else if (info.format === 'lockboard') {
    view.releaseNote =
      'Replaces the lock with a released marker if it is still the version you saw (PutObject If-Match): the marker ' +
      'keeps the fencing counter; the holder learns at its next refresh (412) and its signal aborts.';
  } else if (info.releasable) {
    view.releaseNote = 'Deletes the object only if it is still the version you saw (DeleteObject If-Match).';
  }
  return view;
}

function releasedMarker(lock: LockView): string {
  return JSON.stringify({
    format: 'lockboard/1',
    released: 'true',
    token: lock.generation,
    nonce: Math.random().toString(16).slice(2),
  });
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/** An S3 audit object's JSON body as the shared audit record. */
function auditRecordOf(key: string, body: Buffer): AuditRecord | undefined {
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { event, lock, at } = fields;
  if (typeof event !== 'string' || typeof lock !== 'string' || typeof at !== 'string') return undefined;
  const record = { id: key, at, event, lock } as AuditRecord;
  for (const k of AUDIT_STRING_FIELDS) if (typeof fields[k] === 'string') record[k] = fields[k];
  if (fields.delete_confirmed === 'false') record.delete_confirmed = 'false';
  return record;
}
