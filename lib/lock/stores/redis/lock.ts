// Lockboard's lock on Redis (docs/stores.md): SET NX PX with a unique value, refresh and release by a Lua compare on
// that value, a fencing token from INCR in the same script as the SET (one round trip, same hash slot), loss pushed
// through `signal` by a monotonic deadline. A backend interface lets unit tests run on an in-process store with the
// same API.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { RefreshingLock, type RefreshResult } from '../../holding/refreshing-lock';
import { RedisConn, type RedisClientLike } from './conn';

/** What the lock needs of a store: Redis through Lua, or the in-process MemoryRedisLocks. */
export interface RedisLockBackend {
  /**
   * SET NX PX of `template` with `@TOKEN@` replaced by the fence counter's INCR, in one step: the new token, or null
   * when the lock is held.
   */
  tryAcquire(key: string, fence: string, template: string, ttlMs: number): Promise<string | null>;
  /** PEXPIRE if the key still holds `value`: false when it does not. */
  refresh(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** DEL if the key still holds `value`. */
  release(key: string, value: string): Promise<boolean>;
  /** The current value (null when free) and its PTTL. */
  read(key: string): Promise<{ value: string; pttl: number } | null>;
}

const ACQUIRE = `if redis.call('EXISTS', KEYS[1]) == 1 then return false end local t = redis.call('INCR', KEYS[2]) redis.call('SET', KEYS[1], string.gsub(ARGV[1], '@TOKEN@', tostring(t)), 'PX', ARGV[2]) return tostring(t)`;
const REFRESH = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

export function redisBackend(client: RedisClientLike): RedisLockBackend {
  const conn = new RedisConn(client);
  return {
    async tryAcquire(key, fence, template, ttlMs) {
      const r = await conn.cmd(key, ['EVAL', ACQUIRE, '2', key, fence, template, String(ttlMs)]);
      return r === null || r === undefined ? null : String(r);
    },
    async refresh(key, value, ttlMs) {
      return Number(await conn.cmd(key, ['EVAL', REFRESH, '1', key, value, String(ttlMs)])) === 1;
    },
    async release(key, value) {
      return Number(await conn.cmd(key, ['EVAL', RELEASE, '1', key, value])) === 1;
    },
    async read(key) {
      const [value, pttl] = await Promise.all([conn.cmd(key, ['GET', key]), conn.cmd(key, ['PTTL', key])]);
      return value === null || value === undefined ? null : { value: String(value), pttl: Number(pttl) };
    },
  };
}

/** The fence counter lives in the lock's hash slot: `{name}:lockboard-fence` (or the name's own hash tag). */
export function fenceKeyFor(name: string): string {
  return /\{[^}]+\}/.test(name) ? `${name}:lockboard-fence` : `{${name}}:lockboard-fence`;
}

interface RedisLockSettings {
  name: string;
  identity: string;
  purpose?: string;
  ttlMs: number;
  refreshIntervalMs: number;
}

/** The value a holder writes: JSON with a nonce, so no two acquisitions share a value. */
export function lockValue(s: RedisLockSettings, token: string, acquiredMs: number): string {
  return JSON.stringify({
    format: 'lockboard/1',
    token,
    identity: s.identity,
    host: hostname(),
    pid: String(process.pid),
    ...(s.purpose ? { purpose: s.purpose } : {}),
    ttl_ms: String(s.ttlMs),
    refresh_ms: String(s.refreshIntervalMs),
    acquired_ms: String(Math.round(acquiredMs)),
    nonce: randomBytes(8).toString('hex'),
  });
}

export class RedisLock extends RefreshingLock {
  constructor(
    private readonly backend: RedisLockBackend,
    private readonly settings: RedisLockSettings,
    readonly fencingToken: string,
    private readonly value: string,
  ) {
    const { ttlMs, refreshIntervalMs } = settings;
    super(settings.name, ttlMs, refreshIntervalMs, Math.max(ttlMs / 8, Math.min(2 * refreshIntervalMs, ttlMs / 3)));
  }

  /** PEXPIRE if the key still holds our value; otherwise one read tells taken from released. */
  protected async refreshOnce(): Promise<RefreshResult> {
    let ok: boolean;
    try {
      ok = await this.backend.refresh(this.settings.name, this.value, this.settings.ttlMs);
    } catch {
      return 'retry'; // unreachable: the next refresh tries again
    }
    if (ok) return 'ok';
    const now = await this.backend.read(this.settings.name).catch(() => undefined);
    if (now === undefined) return 'retry';
    return now
      ? { lost: 'taken', detail: 'another holder has it' }
      : { lost: 'released-by-operator', detail: 'the key was deleted' };
  }

  /** DEL if still ours (after any refresh in flight): `released`, or `already-lost`. */
  async release(): Promise<'released' | 'already-lost'> {
    if (!(await this.stopForRelease())) return 'already-lost';
    return (await this.backend.release(this.settings.name, this.value)) ? 'released' : 'already-lost';
  }
}
