// listAuditEvents: audit objects of a time window, read from their metadata. Object names sort by time, so the
// window is one listing with startOffset/endOffset: one objects.list call per 1 000 events, no per-object GET.
import type { Storage } from '@google-cloud/storage';
import { AUDIT_STRING_FIELDS, type AuditEventKind, type AuditRecord } from '../../audit/record';
import { storeTime } from '../../audit/time';
import { auditObjectName } from '../../objects/audit-names';

export type { AuditRecord };
import { BucketObjects } from './client';
import type { GcsObjectResource } from '../../types';

export interface ListAuditOptions {
  storage: Storage;
  bucket: string;
  auditPrefix: string;
  from: Date;
  to: Date;
  lock?: string;
  events?: AuditEventKind[];
  /** Stop after this many matching events (default 200 000). */
  limit?: number;
}

const FIELDS = 'items(name,metadata,timeCreated),nextPageToken';
const OBSERVED = new Set<string>(['observed-created', 'observed-deleted', 'deleted-outside']);
const STAMP = /(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})\.(\d{3})\d{3}Z-[0-9a-f]+\.json$/;

export async function listAuditEvents(
  options: ListAuditOptions,
): Promise<{ events: AuditRecord[]; listCalls: number; truncated: boolean }> {
  const objects = new BucketObjects(options.storage, options.bucket);
  const limit = options.limit ?? 200_000;
  // Bounds share the name layout; the random suffix sorts after the stamp, so "-" bounds the instant itself.
  const startOffset = auditObjectName(options.auditPrefix, options.from.getTime()).replace(/-[0-9a-f]{8}\.json$/, '');
  const endOffset = auditObjectName(options.auditPrefix, options.to.getTime()).replace(/-[0-9a-f]{8}\.json$/, '');
  const events: AuditRecord[] = [];
  let pageToken: string | undefined;
  let listCalls = 0;
  do {
    const page = await objects.list({
      prefix: options.auditPrefix,
      startOffset,
      endOffset,
      pageToken,
      maxResults: 1000,
      fields: FIELDS,
    });
    listCalls++;
    for (const item of page.items ?? []) {
      const record = toRecord(item);
      if (!record) continue;
      if (options.lock && record.lock !== options.lock) continue;
      if (options.events && !options.events.includes(record.event as AuditEventKind)) continue;
      events.push(record);
    }
    pageToken = page.nextPageToken;
  } while (pageToken && events.length < limit);
  return { events: events.slice(0, limit), listCalls, truncated: Boolean(pageToken) };
}

/** The optional string fields of an audit record, as every store's trail stores them. */

function toRecord(item: GcsObjectResource): AuditRecord | null {
  const m = STAMP.exec(item.name);
  const md = item.metadata ?? {};
  const str = (k: string): string | undefined => (md[k] === undefined || md[k] === null ? undefined : String(md[k]));
  const num = (k: string): number | undefined => {
    const v = Number(str(k));
    return str(k) !== undefined && Number.isFinite(v) ? v : undefined;
  };
  const event = str('event') as AuditEventKind | undefined;
  const lock = str('lock');
  if (!m || !event || !lock) return null;
  const named = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z`;
  const created = Date.parse(item.timeCreated ?? '');
  // the object's creation dates it, not the name its writer chose; observed events alone are dated by the change
  // notification they record (written later, named by the event's time)
  const at = Number.isFinite(created) && !OBSERVED.has(event) ? storeTime(named, created) : named;
  const record: AuditRecord = { id: item.name, at, event, lock };
  for (const key of AUDIT_STRING_FIELDS) {
    const v = str(key);
    if (v !== undefined) record[key] = v;
  }
  if (str('delete_confirmed') === 'false') record.delete_confirmed = 'false';
  const held = num('held_ms');
  if (held !== undefined) record.held_ms = held;
  const stale = num('stale_ms');
  if (stale !== undefined) record.stale_ms = stale;
  return record;
}
