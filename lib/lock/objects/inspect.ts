// inspectLock: the one place that turns an object into a LockInfo: its class and format (through the format
// registry), its owner in the format's terms, and its health judged by that format's own rule on server time.
import { classifyObject, type Classification, type ObjectView } from './formats';
import { isoTime, isValidTime } from '../time';
import type { GcsObjectResource, LockHealth, LockInfo } from '../types';
import { droppedNote, joinNotes } from '../support/untrusted';
import { objectSigns } from './signs';

export { LOCKBOARD_FORMAT } from './formats';

export interface InspectOptions {
  bucket?: string;
  /** Healthy or overdue locks held longer than this are `long-held`. */
  longHeldMs?: number;
  /** The object's body, for formats that need it (Terraform, Pulumi, Hudi, plain), when read. */
  body?: Buffer;
}

/** What names an object besides its view: its bucket and version fields, as the store reports them. */
export interface ObjectIdentity {
  bucket: string;
  generation: string;
  metageneration: string;
  temporaryHold?: boolean;
}

/**
 * An object whose body is still being read (a metadata-first listing): listed by name and times so the first screen
 * does not wait for every body; never releasable until read.
 */
export function pendingLock(object: GcsObjectResource, serverNow: number, bucket: string): LockInfo {
  return pendingView(objectViewOf(object), identityOf(object, bucket), serverNow);
}

/** `pendingLock` for a store that builds the object's view itself. */
export function pendingView(view: ObjectView, id: ObjectIdentity, serverNow: number): LockInfo {
  const info = baseOf(view, id, serverNow, 'other', 'Reading…');
  info.releaseNote = 'Still being read: the release is offered once the lock is known.';
  info.note = 'Its body is being read; owner and expiry follow in a moment.';
  info.pending = true;
  return info;
}

const NOT_A_LOCK = 'Not a lock: Lockboard never deletes an object it does not recognise as a lock.';

export function inspectLock(object: GcsObjectResource, serverNow: Date | number, opts: InspectOptions = {}): LockInfo {
  const now = typeof serverNow === 'number' ? serverNow : serverNow.getTime();
  return inspectView(objectViewOf(object, opts.body), identityOf(object, opts.bucket), now, opts.longHeldMs);
}

/**
 * `inspectLock` for a store that builds the object's view itself (S3 keeps its times as numbers: no ISO round trip
 * for each of thousands of listed objects). One object built per lock, no spreads: a cold listing does this 10 000
 * times.
 */
export function inspectView(view: ObjectView, id: ObjectIdentity, now: number, longHeldMs?: number): LockInfo {
  const classified = classifyObject(view);
  if (classified.kind !== 'lock') {
    const data = classified.kind === 'data';
    const info = baseOf(view, id, now, classified.kind, data ? 'Data object' : 'Not a recognised lock');
    info.note = `${data ? 'Data object' : 'Not a lock'}: ${classified.reason}`;
    return info;
  }
  const info = baseOf(view, id, now, classified.format.id as LockInfo['format'], '');
  return readLock(classified, view, info, now, longHeldMs);
}

function identityOf(object: GcsObjectResource, bucket: string | undefined): ObjectIdentity {
  return {
    bucket: bucket ?? object.bucket ?? '',
    generation: String(object.generation),
    metageneration: String(object.metageneration),
    ...(object.temporaryHold !== undefined ? { temporaryHold: object.temporaryHold } : {}),
  };
}

/** The fields every object has, as a not-releasable object; a lock's reading fills in the rest. */
function baseOf(view: ObjectView, id: ObjectIdentity, now: number, format: LockInfo['format'], label: string) {
  const info: LockInfo = {
    bucket: id.bucket,
    name: view.name,
    generation: id.generation,
    metageneration: id.metageneration,
    createdAt: safeIso(view.createdMs),
    updatedAt: safeIso(view.updatedMs),
    heldMs: isValidTime(view.createdMs) ? Math.max(0, Math.round(now - view.createdMs)) : 0,
    metadata: view.metadata,
    size: view.size,
    format,
    formatLabel: label,
    details: [],
    health: 'unknown',
    releasable: false,
    releaseRule: 'none',
    releaseNote: NOT_A_LOCK,
  };
  if (id.temporaryHold !== undefined) info.temporaryHold = id.temporaryHold;
  return info;
}

function readLock(
  { format, reading }: Extract<Classification, { kind: 'lock' }>,
  view: ObjectView,
  info: LockInfo,
  now: number,
  longHeldMs: number | undefined,
): LockInfo {
  let note = joinNotes(reading.note, droppedNote([...(view.dropped ?? []), ...(reading.dropped ?? [])]));
  let staleAt = reading.staleAt;
  if (staleAt !== undefined && !isValidTime(staleAt)) {
    note ??= 'its expiry is not a representable time';
    staleAt = undefined;
  }
  info.formatLabel = format.label;
  info.details = reading.details ?? [];
  info.health = judgeHealth(now, view, reading, staleAt, longHeldMs);
  info.releasable = true;
  info.releaseRule = format.release;
  info.releaseNote = format.releaseNote;
  if (note !== undefined) info.note = note;
  if (reading.identity !== undefined) info.identity = reading.identity;
  // the format's own acquire time where it records one, as DynamoDB's Terraform lock does (else the object's)
  if (reading.acquiredMs !== undefined && isValidTime(reading.acquiredMs)) {
    info.createdAt = isoTime(reading.acquiredMs);
    info.heldMs = Math.max(0, Math.round(now - reading.acquiredMs));
  }
  if (format.id === 'lockboard') {
    for (const key of ['host', 'pid', 'purpose'] as const) if (view.metadata[key]) info[key] = view.metadata[key];
  }
  if (reading.ttlMs !== undefined && isValidTime(reading.ttlMs)) info.ttlMs = Math.round(reading.ttlMs);
  if (reading.refreshMs !== undefined && isValidTime(reading.refreshMs))
    info.refreshIntervalMs = Math.round(reading.refreshMs);
  const until = staleAt ?? (isValidTime(reading.freeAt) ? reading.freeAt : undefined);
  if (until !== undefined) {
    info.expiresAt = isoTime(until);
    info.afterExpiry = staleAt !== undefined ? 'expired' : 'free';
  }
  const signs = objectSigns({ format, reading, view, now, ...(staleAt !== undefined ? { staleAt } : {}) });
  if (signs.length) info.signs = signs;
  return info;
}

function judgeHealth(
  now: number,
  view: ObjectView,
  reading: { released?: boolean; freeAt?: number; refreshMs?: number },
  staleAt: number | undefined,
  longHeldMs: number | undefined,
): LockHealth {
  if (reading.released) return 'free';
  if (reading.freeAt !== undefined) {
    if (!isValidTime(reading.freeAt)) return 'unknown';
    return now > reading.freeAt ? 'free' : 'healthy';
  }
  const { refreshMs } = reading;
  if (staleAt === undefined) return 'unknown';
  if (now >= staleAt) return 'expired';
  if (longHeldMs !== undefined && now - view.createdMs > longHeldMs) return 'long-held';
  if (refreshMs !== undefined && now >= view.updatedMs + 1.5 * refreshMs) return 'overdue';
  return 'healthy';
}

/** What the format registry sees of an object: string metadata, numeric size and times, the hold, the body. */
export function objectViewOf(object: GcsObjectResource, body?: Buffer): ObjectView {
  const size = Number(object.size ?? body?.length ?? 0);
  return {
    name: object.name,
    metadata: stringMetadata(object.metadata),
    size: Number.isFinite(size) ? size : 0,
    createdMs: Date.parse(object.timeCreated),
    updatedMs: Date.parse(object.updated),
    temporaryHold: object.temporaryHold === true,
    ...(body ? { body } : {}),
  };
}

function safeIso(ms: number): string {
  return isValidTime(ms) ? isoTime(ms) : '';
}

function stringMetadata(raw: GcsObjectResource['metadata']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw ?? {}))
    if (value !== null && value !== undefined) out[key] = String(value);
  return out;
}
