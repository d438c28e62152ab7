import { Storage } from '@google-cloud/storage';
import { describe, expect, it } from 'vitest';
import { acquireLock, forceReleaseLock, LockOptionsError } from '@/lib/lock';

const storage = new Storage({ apiEndpoint: 'http://127.0.0.1:9', projectId: 'test' });
const base = { storage, bucket: 'b', name: 'locks/x', audit: false as const };

describe('lock options', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['a TTL under one second', { ttlMs: 999 }, /`ttlMs` to be a number of at least 1000, got 999/],
    [
      'a refresh interval over TTL/3',
      { ttlMs: 3000, refreshIntervalMs: 1001 },
      /`refreshIntervalMs` to be at most ttlMs \/ 3 \(1000\), got 1001/,
    ],
    ['an empty name', { name: '' }, /`name` to be a non-empty object name/],
    ['a name over 1024 bytes', { name: 'é'.repeat(513) }, /`name` to be at most 1024 bytes, got 1026/],
    ['a negative timeout', { timeoutMs: -1 }, /`timeoutMs` to be a number of at least 0, got -1/],
    ['a purpose over 256 characters', { purpose: 'p'.repeat(257) }, /`purpose` to be a string of at most 256/],
    ['no bucket', { bucket: '' }, /`bucket` to be a non-empty string/],
    ['no storage', { storage: undefined }, /`storage` to be a Storage instance/],
    ['a TTL a Node.js timer cannot hold', { ttlMs: 2 ** 31 }, /`ttlMs` to be at most 2147483647 \(about 24.8 days/],
    ['a name with a lone surrogate', { name: 'locks/\ud800' }, /`name` to be valid Unicode/],
    ['a name with a line break', { name: 'locks/a\nb' }, /`name` to contain no line breaks/],
  ];
  for (const [what, patch, message] of cases) {
    it(`rejects ${what} with LockOptionsError naming the option`, async () => {
      const err = await acquireLock({ ...base, ...patch } as never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockOptionsError);
      expect((err as Error).message).toMatch(message);
    });
  }

  it('rejects a non-numeric generation in force-release', async () => {
    const err = await forceReleaseLock({ storage, bucket: 'b', name: 'locks/x', generation: '12a' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LockOptionsError);
    expect((err as Error).message).toMatch(/`generation` to be a decimal integer string/);
  });

  it('waits for a timeout longer than a Node.js timer can hold instead of giving up at once', async () => {
    const { startTestEmulator } = await import('../helpers/gcs');
    const t = await startTestEmulator();
    try {
      const opts = { storage: t.storage, bucket: t.bucket, name: 'locks/long', audit: false as const };
      const holder = await acquireLock(opts);
      const stop = new AbortController();
      const waiting = acquireLock({ ...opts, timeoutMs: 30 * 86_400_000, signal: stop.signal }).catch(
        (e: unknown) => e,
      );
      const early = await Promise.race([waiting, new Promise((r) => setTimeout(() => r('still waiting'), 600))]);
      expect(early).toBe('still waiting');
      stop.abort();
      expect(((await waiting) as Error).name).toBe('AbortError');
      await holder.release();
    } finally {
      await t.close();
    }
  });
});
