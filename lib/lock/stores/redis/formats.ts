// The Redis lock formats (facts-redis-postgres.md), recognised by key and value shape. A key that matches none (a
// cache entry, a counter, a queue) is not a lock: never listed, never released.
import { createHash } from 'node:crypto';
import { readLockboard } from './lockboard-value';

export type RedisFormat =
  | 'lockboard'
  | 'redis-py'
  | 'python-redis-lock'
  | 'redlock'
  | 'redislock'
  | 'redsync'
  | 'redisson'
  | 'laravel'
  | 'sidekiq-unique-jobs'
  | 'setnx';

/** What one key holds, as read in the listing pipeline. */
export interface RedisKeyRead {
  key: string;
  type: string;
  /** A string key's value. */
  value?: string;
  /** A hash's fields. */
  hash?: Record<string, string>;
  /** Milliseconds to live; -1 none. */
  pttl: number;
}

export interface RedisReading {
  format: RedisFormat;
  label: string;
  /** The lock's name as shown (SUJ: the digest, not its :LOCKED hash). */
  name: string;
  /** What the version is a hash of: the value, or Redisson's / SUJ's owner field. */
  versionOf: string;
  identity?: string;
  /** Server time the lock was taken, where the format records it. */
  acquiredMs?: number;
  /** Server time after which it is stale, when the value says so (SETNX). */
  staleAtMs?: number;
  ttlMs?: number;
  refreshMs?: number;
  token?: string;
  details: [string, string][];
  releaseNote: string;
  /** Fields of the value that were of the wrong type and were ignored. */
  note?: string;
}

/**
 * The version an operator sees: a hash of what identifies the holder, never the raw token. Lua computes the same. 16
 * hex digits of the SHA-1, as a string of their own (a slice of the whole digest would keep all 40 alive per lock).
 */
export const versionOf = (s: string): string => createHash('sha1').update(s).digest().toString('hex', 0, 8);

const HEX32 = /^[0-9a-f]{32}$/;
const B64_16 = /^[A-Za-z0-9+/]{22}==$/;
const B64_18 = /^[A-Za-z0-9+/]{24}$/;
const B64URL_16 = /^[A-Za-z0-9_-]{22}/;
const REDISSON_FIELD = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:\d+$/;
const SUJ_LOCKED = /^(.+:[0-9a-f]{32,64}):LOCKED$/;

const COMPARE_DEL = 'Deletes the key only if it still holds the value you saw (one Lua compare-and-delete).';

/** uuid1's 60-bit timestamp (100 ns since 1582-10-15) as Unix milliseconds. */
function uuid1Time(hex: string): number {
  const time = BigInt(`0x${hex.slice(13, 16)}${hex.slice(8, 12)}${hex.slice(0, 8)}`);
  return Number((time - 122192928000000000n) / 10000n);
}

export function readRedisKey(k: RedisKeyRead): RedisReading | null {
  if (k.type === 'hash' && k.hash) return readHash(k, k.hash);
  if (k.type !== 'string' || k.value === undefined) return null;
  const v = k.value;
  const base = { name: k.key, versionOf: v, details: [] as [string, string][], releaseNote: COMPARE_DEL };
  if (v.startsWith('{"format":"lockboard/1"')) return readLockboard(v, base);
  if (/(^|:)lock:/.test(k.key) && B64_18.test(v)) {
    return {
      ...base,
      format: 'python-redis-lock',
      label: 'python-redis-lock',
      releaseNote: `${COMPARE_DEL} Then wakes its waiters as its own unlock does (LPUSH lock-signal:<name>).`,
    };
  }
  if (HEX32.test(v)) {
    // uuid1: version nibble 1, RFC 4122 variant, and a time that is plausible (a random redlock token rarely is)
    const at = v[12] === '1' && /[89ab]/.test(v[16]!) ? uuid1Time(v) : NaN;
    if (at > Date.UTC(2015, 0, 1) && at < Date.now() + 86_400_000) {
      return {
        ...base,
        format: 'redis-py',
        label: 'redis-py Lock',
        acquiredMs: at,
        details: [['Token time (uuid1)', new Date(at).toISOString()]],
      };
    }
    return { ...base, format: 'redlock', label: 'node-redlock' };
  }
  if (B64_16.test(v)) return { ...base, format: 'redsync', label: 'go-redsync' };
  if (B64URL_16.test(v) && (v.length === 22 || v.length > 22)) {
    const meta = v.slice(22);
    if (v.length === 22 || /^[\x20-\x7e]{1,200}$/.test(meta)) {
      return {
        ...base,
        format: 'redislock',
        label: 'bsm/redislock',
        ...(meta ? { identity: meta, details: [['Metadata', meta]] as [string, string][] } : {}),
      };
    }
  }
  if (/^[A-Za-z0-9]{16}$/.test(v) && /(^|[_-])cache[_-]|laravel/i.test(k.key))
    return { ...base, format: 'laravel', label: 'Laravel cache lock' };
  if (/^1\d{9}(\.\d{1,9})?$/.test(v)) {
    return {
      ...base,
      format: 'setnx',
      label: 'SETNX expiry-timestamp lock',
      staleAtMs: Math.round(Number(v) * 1000),
      details: [
        ['Expires (value)', new Date(Number(v) * 1000).toISOString()],
        ['Owner', 'not recorded by this pattern'],
      ],
    };
  }
  return null;
}

function readHash(k: RedisKeyRead, hash: Record<string, string>): RedisReading | null {
  const fields = Object.keys(hash);
  const suj = SUJ_LOCKED.exec(k.key);
  if (suj && fields.length > 0) {
    const [jid, at] = Object.entries(hash)[0]!;
    return {
      format: 'sidekiq-unique-jobs',
      label: 'sidekiq-unique-jobs',
      name: suj[1]!,
      versionOf: jid,
      identity: jid,
      acquiredMs: Number.isFinite(Number(at)) ? Math.round(Number(at) * 1000) : undefined,
      details: [
        ['Job id (jid)', jid],
        ...(fields.length > 1 ? [['Other holders', String(fields.length - 1)] as [string, string]] : []),
      ],
      releaseNote: 'Unlocks the digest only if the job you saw still holds it (its :LOCKED entry), like unlock.lua.',
    };
  }
  if (
    fields.length >= 1 &&
    fields.every((f) => REDISSON_FIELD.test(f)) &&
    Object.values(hash).every((c) => /^\d+$/.test(c))
  ) {
    const owner = fields[0]!;
    return {
      format: 'redisson',
      label: 'Redisson RLock',
      name: k.key,
      versionOf: owner,
      identity: owner,
      details: [
        ['Client : thread', owner],
        ['Reentrancy count', hash[owner]!],
      ],
      releaseNote:
        'Deletes the lock only if the client thread you saw still holds it, then publishes the unlock message on ' +
        'redisson_lock__channel:{name} so waiters retry, as Redisson does.',
    };
  }
  return null;
}

/** Keys that belong to a lock listed under another key (SUJ's digest parts, python-redis-lock's signal list). */
export function isCompanionKey(key: string): boolean {
  return (
    /^lock-signal:/.test(key) ||
    /:[0-9a-f]{32,64}(:(QUEUED|PRIMED|INFO))?$/.test(key) ||
    /(^|:)uniquejobs:(digests|expiring_digests|changelog)$/.test(key) ||
    key.endsWith(':lockboard-fence')
  );
}
