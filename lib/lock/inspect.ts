// inspectLock: the one place that reads a lock object's format and owner and computes its health on server time.
import { isoTime } from './time';
import type { GcsObjectResource, LockFormat, LockHealth, LockInfo } from './types';

export const LOCKBOARD_FORMAT = 'lockboard/1';

export interface InspectOptions {
  bucket?: string;
  /** Healthy or overdue locks held longer than this are `long-held`. */
  longHeldMs?: number;
  /** Parsed JSON body of a Terraform `.tflock` object, when read. */
  terraformBody?: Record<string, unknown>;
}

export function inspectLock(object: GcsObjectResource, serverNow: Date | number, opts: InspectOptions = {}): LockInfo {
  const now = typeof serverNow === 'number' ? serverNow : serverNow.getTime();
  const metadata = stringMetadata(object.metadata);
  const created = Date.parse(object.timeCreated);
  const updated = Date.parse(object.updated);
  const format = detectFormat(object.name, metadata);
  const ttlMs = positiveInt(metadata.ttl_ms);
  const refreshIntervalMs = positiveInt(metadata.refresh_ms);
  const staleAt = staleMoment(format, updated, ttlMs, metadata.expires_at);

  const info: LockInfo = {
    bucket: opts.bucket ?? object.bucket ?? '',
    name: object.name,
    format,
    generation: String(object.generation),
    metageneration: String(object.metageneration),
    createdAt: isoTime(created),
    updatedAt: isoTime(updated),
    health: judgeHealth(now, created, updated, staleAt, refreshIntervalMs, opts.longHeldMs),
    heldMs: Math.max(0, Math.round(now - created)),
    metadata,
  };
  if (ttlMs !== undefined) info.ttlMs = ttlMs;
  if (refreshIntervalMs !== undefined) info.refreshIntervalMs = refreshIntervalMs;
  if (staleAt !== undefined) info.expiresAt = isoTime(staleAt);
  for (const key of ['identity', 'host', 'pid', 'purpose'] as const) {
    if (metadata[key]) info[key] = metadata[key];
  }
  if (format === 'terraform' && opts.terraformBody) applyTerraform(info, opts.terraformBody);
  return info;
}

function judgeHealth(
  now: number,
  created: number,
  updated: number,
  staleAt: number | undefined,
  refreshMs: number | undefined,
  longHeldMs: number | undefined,
): LockHealth {
  if (staleAt === undefined) return 'unknown';
  if (now >= staleAt) return 'expired';
  if (longHeldMs !== undefined && now - created > longHeldMs) return 'long-held';
  if (refreshMs !== undefined && now >= updated + 1.5 * refreshMs) return 'overdue';
  return 'healthy';
}

function staleMoment(
  format: LockFormat,
  updated: number,
  ttlMs: number | undefined,
  expiresAt?: string,
): number | undefined {
  if (format === 'terraform' || format === 'unknown') return undefined;
  if (ttlMs !== undefined) return updated + ttlMs;
  const seconds = expiresAt !== undefined ? Number(expiresAt) : NaN;
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
}

function detectFormat(name: string, metadata: Record<string, string>): LockFormat {
  if (metadata.format === LOCKBOARD_FORMAT || metadata.ttl_ms !== undefined) return 'lockboard';
  if (name.endsWith('.tflock')) return 'terraform';
  if (metadata.identity !== undefined || metadata.expires_at !== undefined) return 'ruby';
  return 'unknown';
}

function applyTerraform(info: LockInfo, body: Record<string, unknown>): void {
  const str = (key: string): string | undefined => (typeof body[key] === 'string' ? (body[key] as string) : undefined);
  info.terraform = {
    id: str('ID'),
    operation: str('Operation'),
    who: str('Who'),
    created: str('Created'),
    path: str('Path'),
  };
  info.identity ??= info.terraform.who;
  info.purpose ??= info.terraform.operation;
}

function stringMetadata(raw: GcsObjectResource['metadata']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw ?? {}))
    if (value !== null && value !== undefined) out[key] = String(value);
  return out;
}

function positiveInt(value: string | undefined): number | undefined {
  const n = value === undefined ? NaN : Number(value);
  return Number.isFinite(n) && n > 0 ? Math.round(n) : undefined;
}
