// MemoryRedisLocks: an in-process store with the Redis lock's semantics (SET NX PX, compare-and-expire,
// compare-and-delete, INCR fences, keys that expire on their own), for unit tests that need no server:
// `acquireRedisLock({ client: new MemoryRedisLocks(), name })` behaves as it does against Redis.
import type { RedisLockBackend } from './lock';

export class MemoryRedisLocks implements RedisLockBackend {
  private readonly keys = new Map<string, { value: string; expiresAt: number }>();
  private readonly counters = new Map<string, number>();

  constructor(private readonly clock: () => number = Date.now) {}

  private live(key: string): { value: string; expiresAt: number } | undefined {
    const entry = this.keys.get(key);
    if (entry && entry.expiresAt <= this.clock()) {
      this.keys.delete(key);
      return undefined;
    }
    return entry;
  }

  async tryAcquire(key: string, fence: string, template: string, ttlMs: number): Promise<string | null> {
    if (this.live(key)) return null;
    const token = String((this.counters.get(fence) ?? 0) + 1);
    this.counters.set(fence, Number(token));
    this.keys.set(key, { value: template.replace('@TOKEN@', token), expiresAt: this.clock() + ttlMs });
    return token;
  }

  async refresh(key: string, value: string, ttlMs: number): Promise<boolean> {
    const entry = this.live(key);
    if (entry?.value !== value) return false;
    entry.expiresAt = this.clock() + ttlMs;
    return true;
  }

  async release(key: string, value: string): Promise<boolean> {
    if (this.live(key)?.value !== value) return false;
    this.keys.delete(key);
    return true;
  }

  async read(key: string): Promise<{ value: string; pttl: number } | null> {
    const entry = this.live(key);
    return entry ? { value: entry.value, pttl: entry.expiresAt - this.clock() } : null;
  }

  /** Deletes a key outright, as an operator's DEL would (for tests of loss). */
  delete(key: string): void {
    this.keys.delete(key);
  }
}
