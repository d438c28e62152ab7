// Lockboard's lock on Redis (stores.md): SET NX PX with a unique value, refresh and release by a Lua compare on that
// value, a fencing token from INCR in the same script as the SET (one round trip, same hash slot), loss pushed through
// `signal` by a monotonic deadline. A backend interface lets unit tests run on an in-process store with the same API.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { LockLostError, type LockLostReason } from '../errors';
import { monotonicNow } from '../time';
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

export interface RedisLockSettings {
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

export class RedisLock extends EventTarget {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private lastOk = monotonicNow();
  private busy: Promise<void> = Promise.resolve();
  private done = false;

  constructor(
    private readonly backend: RedisLockBackend,
    private readonly settings: RedisLockSettings,
    readonly fencingToken: string,
    private readonly value: string,
  ) {
    super();
    this.signal = this.controller.signal;
    this.arm();
    this.schedule();
  }

  get name(): string {
    return this.settings.name;
  }

  get isHealthy(): boolean {
    return !this.done && monotonicNow() < this.lastOk + this.safeTtl();
  }

  private safeTtl(): number {
    return (
      this.settings.ttlMs -
      Math.max(this.settings.ttlMs / 8, Math.min(2 * this.settings.refreshIntervalMs, this.settings.ttlMs / 3))
    );
  }

  private arm(): void {
    clearTimeout(this.deadline);
    const ms = Math.max(0, this.lastOk + this.safeTtl() - monotonicNow());
    this.deadline = setTimeout(() => this.lose('refresh-failed', 'no refresh succeeded in time'), ms);
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.busy = this.refresh().finally(() => {
        if (!this.done) this.schedule();
      });
    }, this.settings.refreshIntervalMs);
  }

  async refresh(): Promise<void> {
    if (this.done) return;
    const started = monotonicNow();
    let ok: boolean;
    try {
      ok = await this.backend.refresh(this.settings.name, this.value, this.settings.ttlMs);
    } catch {
      return; // unreachable: the next refresh tries again, the deadline guards
    }
    if (this.done) return;
    if (ok) {
      this.lastOk = started;
      return this.arm();
    }
    const now = await this.backend.read(this.settings.name).catch(() => undefined);
    if (now === undefined) return;
    this.lose(now ? 'taken' : 'released-by-operator', now ? 'another holder has it' : 'the key was deleted');
  }

  private lose(reason: LockLostReason, detail: string): void {
    if (this.done) return;
    this.stop();
    const error = new LockLostError(this.settings.name, reason, detail);
    this.controller.abort(error);
    this.dispatchEvent(new CustomEvent('lost', { detail: error }));
  }

  private stop(): void {
    this.done = true;
    clearTimeout(this.timer);
    clearTimeout(this.deadline);
  }

  /** DEL if still ours (after any refresh in flight): `released`, or `already-lost`. */
  async release(): Promise<'released' | 'already-lost'> {
    if (this.done) return 'already-lost';
    clearTimeout(this.timer);
    await this.busy;
    if (this.done) return 'already-lost';
    this.stop();
    return (await this.backend.release(this.settings.name, this.value)) ? 'released' : 'already-lost';
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }
}
