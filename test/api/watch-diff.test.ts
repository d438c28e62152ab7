// What the live view pushes: a new version, health or read state, and an expiry that moved (a refresh that keeps the
// version), but not the milliseconds an expiry read from a TTL wobbles by between two listings.
import { describe, expect, it } from 'vitest';
import type { LockView } from '@/lib/lock/store';
import { changed } from '@/lib/server/live/watch-diff';

const lock = (o: Partial<LockView> = {}) =>
  ({ name: 'l', version: 'v1', health: 'healthy', expiresAt: '2026-11-24T10:00:00.000Z', ...o }) as LockView;

describe('changed', () => {
  it('is a change: new, another version, health, read state, or an expiry moved by more than a second', () => {
    expect(changed(undefined, lock())).toBe(true);
    expect(changed(lock(), lock({ version: 'v2' }))).toBe(true);
    expect(changed(lock(), lock({ health: 'expired' }))).toBe(true);
    expect(changed(lock({ pending: true }), lock())).toBe(true);
    expect(changed(lock(), lock({ expiresAt: '2026-11-24T10:00:30.000Z' }))).toBe(true);
    expect(changed(lock(), lock({ expiresAt: undefined }))).toBe(true);
  });

  it('is no change: the same lock, or an expiry a few milliseconds off', () => {
    expect(changed(lock(), lock())).toBe(false);
    expect(changed(lock(), lock({ expiresAt: '2026-11-24T10:00:00.004Z' }))).toBe(false);
  });
});
