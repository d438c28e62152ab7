// Errors told apart across copies of their module (lib/lock/support/branded.ts): Next.js bundles lib code once per layer, and
// a store opened by one layer throws errors another layer's route checks. Two copies of a class are made here as two
// bundles make them.
import { describe, expect, it, vi } from 'vitest';
import { branded } from '@/lib/lock/support/branded';
import { GcsCallError, BucketNotFoundError } from '@/lib/lock/stores/gcs/errors';
import { LockOptionsError } from '@/lib/lock/errors';
import { VersionShapeError } from '@/lib/lock/store';

const copy = () => {
  class Base extends Error {}
  class Sub extends Base {}
  branded(Base, 'TestBase');
  branded(Sub, 'TestSub');
  return { Base, Sub };
};

describe('branded errors', () => {
  it('are instances of every copy of their class, and of no other class', () => {
    const [a, b] = [copy(), copy()];
    expect(new a.Base('x') instanceof b.Base).toBe(true);
    expect(new a.Sub('x') instanceof b.Base).toBe(true);
    expect(new a.Sub('x') instanceof b.Sub).toBe(true);
    expect(new a.Base('x') instanceof b.Sub).toBe(false); // a subclass's check is its own, never its base's
    expect(new Error('x') instanceof b.Base).toBe(false);
    expect({} instanceof b.Base).toBe(false);
  });

  it('keep the store errors the console routes tell apart', () => {
    expect(new BucketNotFoundError('b', 'gone') instanceof GcsCallError).toBe(true);
    expect(new GcsCallError(404, 'gone') instanceof BucketNotFoundError).toBe(false);
    expect(new VersionShapeError('gs://b/', 'x', 'a generation') instanceof LockOptionsError).toBe(true);
    expect(new LockOptionsError('bad') instanceof VersionShapeError).toBe(false);
    expect(new GcsCallError(400, 'bad') instanceof LockOptionsError).toBe(false);
  });

  it('keep the push route’s expected conditions (redeliver later, a malformed notification) across module copies', async () => {
    const a = await import('@/lib/lock/stores/gcs/notifications');
    vi.resetModules();
    const b = await import('@/lib/lock/stores/gcs/notifications');
    expect(a.RedeliverLater).not.toBe(b.RedeliverLater); // two copies, as two bundles make them
    expect(new a.RedeliverLater('later') instanceof b.RedeliverLater).toBe(true);
    expect(new a.NotificationError('bad') instanceof b.NotificationError).toBe(true);
    expect(new a.NotificationError('bad') instanceof b.RedeliverLater).toBe(false);
  });
});
