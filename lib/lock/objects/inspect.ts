// inspectLock: the one place that turns an object into a LockInfo: its class and format (through the format
// registry), its owner in the format's terms, and its health judged by that format's own rule on server time.
import { classifyObject, type Classification, type ObjectView } from './formats';
import { isoTime, isValidTime } from '../time';
import type { GcsObjectResource, LockHealth, LockInfo } from '../types';

export { LOCKBOARD_FORMAT } from './formats';

export interface InspectOptions {
  bucket?: string;
  /** Healthy or overdue locks held longer than this are `long-held`. */
  longHeldMs?: number;
  /** The object's body, for formats that need it (Terraform, Pulumi, Hudi, plain), when read. */
  body?: Buffer;
}

/**
 * An object whose body is still being read (a metadata-first listing): listed by name and times so the first screen
 * does not wait for every body; never releasable until read.
 */
export function pendingLock(object: GcsObjectResource, serverNow: number, bucket: string): LockInfo {
  const view = objectViewOf(object);
  return {
    bucket,
    name: object.name,
    generation: String(object.generation),
    metageneration: String(object.metageneration),
    createdAt: safeIso(view.createdMs),
    updatedAt: safeIso(view.updatedMs),
    heldMs: isValidTime(view.createdMs) ? Math.max(0, Math.round(serverNow - view.createdMs)) : 0,
    metadata: view.metadata,
    size: view.size,
    format: 'other',
    formatLabel: 'Reading…',
    details: [],
    health: 'unknown',
    releasable: false,
    releaseRule: 'none',
    releaseNote: 'Still being read: the release is offered once the lock is known.',
    note: 'Its body is being read; owner and expiry follow in a moment.',
    pending: true,
  };
}

const NOT_A_LOCK = 'Not a lock: Lockboard never deletes an object it does not recognise as a lock.';

export function inspectLock(object: GcsObjectResource, serverNow: Date | number, opts: InspectOptions = {}): LockInfo {
  const now = typeof serverNow === 'number' ? serverNow : serverNow.getTime();
  const view = objectViewOf(object, opts.body);
  const classified = classifyObject(view);
  const base = {
    bucket: opts.bucket ?? object.bucket ?? '',
    name: object.name,
    generation: String(object.generation),
    metageneration: String(object.metageneration),
    createdAt: safeIso(view.createdMs),
    updatedAt: safeIso(view.updatedMs),
    heldMs: isValidTime(view.createdMs) ? Math.max(0, Math.round(now - view.createdMs)) : 0,
    metadata: view.metadata,
    size: view.size,
    ...(object.temporaryHold !== undefined ? { temporaryHold: object.temporaryHold } : {}),
  };
  if (classified.kind !== 'lock') {
    return {
      ...base,
      format: classified.kind,
      formatLabel: classified.kind === 'data' ? 'Data object' : 'Not a recognised lock',
      details: [],
      health: 'unknown',
      releasable: false,
      releaseRule: 'none',
      releaseNote: NOT_A_LOCK,
      note: `${classified.kind === 'data' ? 'Data object' : 'Not a lock'}: ${classified.reason}`,
    };
  }
  return { ...base, ...readLock(classified, view, now, opts.longHeldMs) };
}

function readLock(
  { format, reading }: Extract<Classification, { kind: 'lock' }>,
  view: ObjectView,
  now: number,
  longHeldMs: number | undefined,
): Omit<
  LockInfo,
  'bucket' | 'name' | 'generation' | 'metageneration' | 'createdAt' | 'updatedAt' | 'heldMs' | 'metadata' | 'size'
> {
  let note = reading.note;
  let staleAt = reading.staleAt;
  if (staleAt !== undefined && !isValidTime(staleAt)) {
    note ??= 'its expiry is not a representable time';
    staleAt = undefined;
  }
  const info: ReturnType<typeof readLock> = {
    format: format.id as LockInfo['format'],
    formatLabel: format.label,
    details: reading.details ?? [],
    health: judgeHealth(now, view, { ...reading, staleAt }, longHeldMs),
    releasable: true,
    releaseRule: format.release,
    releaseNote: format.releaseNote,
  };
  if (note !== undefined) info.note = note;
  if (reading.identity !== undefined) info.identity = reading.identity;
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
  return info;
}

function judgeHealth(
  now: number,
  view: ObjectView,
  reading: { released?: boolean; freeAt?: number; staleAt?: number; refreshMs?: number },
  longHeldMs: number | undefined,
): LockHealth {
  if (reading.released) return 'free';
  if (reading.freeAt !== undefined) {
    if (!isValidTime(reading.freeAt)) return 'unknown';
    return now > reading.freeAt ? 'free' : 'healthy';
  }
  const { staleAt, refreshMs } = reading;
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
