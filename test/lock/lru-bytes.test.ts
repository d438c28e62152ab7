import { describe, expect, it } from 'vitest';
import { LruBytes } from '@/lib/lock/support/lru-bytes';

describe('the body cache', () => {
  it('keeps at most its byte budget, evicting the least recently used body first', () => {
    const cache = new LruBytes(30);
    for (const k of ['a', 'b', 'c']) cache.set(k, Buffer.alloc(10, k));
    expect(cache.get('a')?.toString()).toBe('a'.repeat(10)); // a is now the most recent
    cache.set('d', Buffer.alloc(10, 'd'));
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].every((k) => cache.get(k) !== undefined)).toBe(true);
    expect(cache.totalBytes).toBe(30);
  });

  it('keeps every body of a prefix with more than 10 000 lock bodies when they fit its budget', () => {
    const cache = new LruBytes(64 * 1024 * 1024);
    for (let i = 0; i < 12_000; i++) cache.set(`b/locks/${i}#1`, Buffer.alloc(300));
    expect(cache.size).toBe(12_000);
    expect(cache.get('b/locks/0#1')).toBeDefined();
  });

  it('never keeps a body larger than the whole budget', () => {
    const cache = new LruBytes(10);
    cache.set('big', Buffer.alloc(11));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.totalBytes).toBe(0);
  });
});
