// Option defaults and validation; messages name the option and the allowed range.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { LockOptionsError } from '../errors';
import { MAX_TIMER_MS } from '../time';
import type { LockInfo } from '../types';

/** Per-request timeout of a store call the protocol makes. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_TTL_MS = 300_000;
export const DEFAULT_AUDIT_PREFIX = '.lockboard/audit/';
export const MAX_PURPOSE_LENGTH = 256;

/**
 * What every store's acquire takes besides its connection, in the same words on every store: a store's options
 * extend it (with `ttlMs`/`refreshIntervalMs` through `LeaseRequest` where its lock has a lease it refreshes).
 */
export interface LockRequest<H extends LockInfo = LockInfo> {
  /** The lock's name in the store (an object key, a Redis key, a table's hash key, a znode path…). */
  name: string;
  identity?: string;
  purpose?: string;
  /** undefined = wait without limit; 0 = try once. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called while waiting, each time the holder is read. */
  onWait?: (holder: H) => void;
}

/** A lock with a TTL its holder refreshes in the background. */
export interface LeaseRequest<H extends LockInfo = LockInfo> extends LockRequest<H> {
  ttlMs?: number;
  refreshIntervalMs?: number;
}

export function defaultIdentity(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function validateLockName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '')
    throw new LockOptionsError('Expected `name` to be a non-empty object name');
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > 1024) throw new LockOptionsError(`Expected \`name\` to be at most 1024 bytes, got ${bytes}`);
  if (/[\r\n\0]/.test(name)) throw new LockOptionsError('Expected `name` to contain no line breaks or NUL characters');
  if (!name.isWellFormed()) throw new LockOptionsError('Expected `name` to be valid Unicode (it has a lone surrogate)');
}

export function checkNumber(option: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new LockOptionsError(`Expected \`${option}\` to be a number of at least ${min}, got ${String(value)}`);
  }
  if (value > max) {
    const hint = max === MAX_TIMER_MS ? ' (about 24.8 days: the longest delay a Node.js timer can hold)' : '';
    throw new LockOptionsError(`Expected \`${option}\` to be at most ${max}${hint}, got ${String(value)}`);
  }
}

/** The settings of a lock with a TTL refreshed in the background (S3, DynamoDB), validated with the same messages. */
export function leaseSettings(o: {
  name: string;
  identity?: string;
  purpose?: string;
  ttlMs?: number;
  refreshIntervalMs?: number;
  timeoutMs?: number;
}): { name: string; identity: string; purpose?: string; ttlMs: number; refreshIntervalMs: number } {
  validateLockName(o.name);
  const ttlMs = o.ttlMs ?? 60_000;
  if (!Number.isInteger(ttlMs) || ttlMs < 5_000 || ttlMs > MAX_TIMER_MS)
    throw new LockOptionsError(`Expected \`ttlMs\` to be an integer from 5000 to ${MAX_TIMER_MS}, got ${ttlMs}`);
  const refreshIntervalMs = o.refreshIntervalMs ?? Math.floor(ttlMs / 6);
  if (!Number.isInteger(refreshIntervalMs) || refreshIntervalMs < 1 || refreshIntervalMs > ttlMs / 3)
    throw new LockOptionsError(
      `Expected \`refreshIntervalMs\` to be an integer from 1 to ttlMs / 3 (${Math.floor(ttlMs / 3)}), got ${refreshIntervalMs}`,
    );
  if (o.timeoutMs !== undefined && (!Number.isFinite(o.timeoutMs) || o.timeoutMs < 0))
    throw new LockOptionsError(`Expected \`timeoutMs\` to be at least 0, got ${o.timeoutMs}`);
  return { name: o.name, identity: o.identity ?? defaultIdentity(), purpose: o.purpose, ttlMs, refreshIntervalMs };
}
