// A trail that cannot be forged: holders may write to the trail (they record their own acquisitions), so the records
// the console and the CLI write are signed with a key only the deployment holds (HMAC-SHA256 over the record's fields
// and its signing time), and every record read back says whether it is `verified`. An unsigned record is what a
// holder reported, never an operator's release; an event kind no Lockboard writes is shown as `unknown`.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AUDIT_STRING_FIELDS, KNOWN_AUDIT_EVENTS, type AuditRecord } from './record';

/** How far a signature's own time may be from the time the store gave the record (a copied record is not). */
const SKEW_MS = 5 * 60_000;
const SIGNED = [
  ...new Set(['event', 'lock', ...AUDIT_STRING_FIELDS, 'held_ms', 'stale_ms', 'delete_confirmed', 'signed_at']),
].filter((k) => k !== 'sig' && k !== 'container'); // the trail's container is the store's, added beside

const KEY = Symbol.for('lockboard.auditKey');
type Holder = { [KEY]?: string };

/** The deployment's signing key (console: LOCKBOARD_AUDIT_KEY, validated; the CLI reads the same variable). */
export function setAuditKey(key: string | undefined): void {
  (globalThis as Holder)[KEY] = key || undefined;
}

export function auditKey(): string | undefined {
  return (globalThis as Holder)[KEY];
}

function canonical(fields: Record<string, unknown>): string {
  return JSON.stringify(SIGNED.filter((k) => fields[k] !== undefined).map((k) => [k, String(fields[k])]));
}

const mac = (key: string, fields: Record<string, unknown>) =>
  createHmac('sha256', key).update(canonical(fields)).digest('base64url');

/** The fields with `signed_at` and `sig` added when a key is configured (unchanged otherwise). */
export function signAuditFields<T extends object>(fields: T, now = Date.now()): T {
  const key = auditKey();
  if (!key) return fields;
  const signed = { ...fields, signed_at: new Date(now).toISOString() } as Record<string, unknown>;
  return { ...signed, sig: mac(key, signed) } as T;
}

/**
 * What a record's signature says under `key`: unsigned ('none': a holder's report), signed but not by this key
 * ('other-key': a key since replaced, never shown as a holder's report), a good signature from another time
 * ('copied'), or 'verified'.
 */
function signatureOf(r: Record<string, unknown>, key: string | undefined): NonNullable<AuditRecord['signature']> {
  if (typeof r.sig !== 'string' || typeof r.signed_at !== 'string') return 'none';
  if (!key) return 'other-key';
  const expected = Buffer.from(mac(key, r));
  const given = Buffer.from(r.sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'other-key';
  return Math.abs(Date.parse(r.signed_at) - Date.parse(String(r.at))) <= SKEW_MS ? 'verified' : 'copied';
}

/**
 * Records as read from any store's trail, made safe to show: each field type-checked (a field of the wrong type is
 * dropped), event kinds no Lockboard writes shown as `unknown` (the written kind kept in `reported_event`), and
 * `verified` set from the signature. `kinds`: the event kinds the reader knows (the console's session records have
 * their own, lib/server/auth/session-revocations.ts).
 */
export function trustAuditRecords(
  records: readonly AuditRecord[],
  key = auditKey(),
  kinds: readonly string[] = KNOWN_AUDIT_EVENTS,
): AuditRecord[] {
  const out: AuditRecord[] = [];
  for (const raw of records as unknown as Record<string, unknown>[]) {
    if (typeof raw.id !== 'string' || typeof raw.lock !== 'string' || typeof raw.at !== 'string') continue;
    if (!Number.isFinite(Date.parse(raw.at))) continue;
    const event = typeof raw.event === 'string' ? raw.event : '';
    const known = kinds.includes(event);
    const r: AuditRecord = {
      id: raw.id,
      at: raw.at,
      lock: raw.lock,
      event: known ? (event as AuditRecord['event']) : 'unknown',
    };
    if (!known) r.reported_event = event.slice(0, 80);
    for (const k of AUDIT_STRING_FIELDS)
      if (typeof raw[k] === 'string') (r as unknown as Record<string, string>)[k] = raw[k];
    for (const k of ['held_ms', 'stale_ms'] as const)
      if (typeof raw[k] === 'number' && Number.isFinite(raw[k])) r[k] = raw[k];
    if (raw.delete_confirmed === 'false') r.delete_confirmed = 'false';
    r.signature = signatureOf({ ...r, event }, key);
    r.verified = known && r.signature === 'verified';
    datedBy(r, raw.at_from);
    delete r.sig;
    out.push(r);
  }
  return out;
}

/**
 * Where the store keeps no time of its own for a record, its time is the signer's when the signature holds (a
 * signature covers `signed_at`), else the writer's, shown as reported; elsewhere it is the store's.
 */
function datedBy(r: AuditRecord, from: unknown): void {
  if (from !== 'reported') return;
  if (r.verified && r.signed_at && Number.isFinite(Date.parse(r.signed_at))) {
    r.at = new Date(r.signed_at).toISOString();
    r.at_from = 'signed';
  } else r.at_from = 'reported';
}
