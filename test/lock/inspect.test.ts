import { describe, expect, it } from 'vitest';
import { inspectLock, type GcsObjectResource } from '@/lib/lock';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const lockObject = (metadata: Record<string, string>, name = 'locks/a'): GcsObjectResource => ({
  name,
  generation: '100',
  metageneration: '3',
  timeCreated: new Date(t0).toISOString(),
  updated: new Date(t0 + 10_000).toISOString(),
  metadata,
});
const ours = { identity: 'h:1:abcd', ttl_ms: '60000', refresh_ms: '8000', format: 'lockboard/1', expires_at: '0' };

describe('inspectLock', () => {
  it('judges a recently refreshed lock healthy, on server time, ignoring the holder-written expires_at', () => {
    const info = inspectLock(lockObject(ours), t0 + 15_000, { bucket: 'b' });
    expect(info).toMatchObject({
      format: 'lockboard',
      health: 'healthy',
      identity: 'h:1:abcd',
      ttlMs: 60000,
      heldMs: 15000,
    });
    expect(info.expiresAt).toBe(new Date(t0 + 70_000).toISOString());
  });

  it('judges a lock overdue once a refresh is 1.5 intervals late', () => {
    expect(inspectLock(lockObject(ours), t0 + 10_000 + 11_999).health).toBe('healthy');
    expect(inspectLock(lockObject(ours), t0 + 10_000 + 12_000).health).toBe('overdue');
  });

  it('judges a lock expired at updated + ttl_ms', () => {
    expect(inspectLock(lockObject(ours), t0 + 69_999).health).toBe('overdue');
    expect(inspectLock(lockObject(ours), t0 + 70_000).health).toBe('expired');
  });

  it('marks a live lock held past the configured limit as long-held', () => {
    expect(inspectLock(lockObject(ours), t0 + 15_000, { longHeldMs: 14_000 }).health).toBe('long-held');
    expect(inspectLock(lockObject(ours), t0 + 80_000, { longHeldMs: 14_000 }).health).toBe('expired');
  });

  it('reads a Ruby-format lock by expires_at, inferring TTL = expires_at − updated and refresh = TTL/8', () => {
    // updated at t0 + 10 s, expires at t0 + 30 s: TTL 20 s, refresh 2.5 s, overdue 3.75 s after the update
    const ruby = lockObject({ identity: 'ruby-host', expires_at: String((t0 + 30_000) / 1000) });
    expect(inspectLock(ruby, t0 + 13_000)).toMatchObject({ format: 'ruby', health: 'healthy', ttlMs: 20_000 });
    expect(inspectLock(ruby, t0 + 14_000).health).toBe('overdue');
    expect(inspectLock(ruby, t0 + 30_000).health).toBe('expired');
  });

  it('never judges a Terraform or plain object stale, and reads Terraform owner fields', () => {
    const body = Buffer.from(
      JSON.stringify({ ID: 'x', Operation: 'OperationTypeApply', Who: 'ann@laptop', Created: 'c', Path: 'p' }),
    );
    const tf = inspectLock(lockObject({}, 'state/prod.tflock'), t0 + 1e9, { body });
    expect(tf).toMatchObject({ format: 'terraform', health: 'unknown', identity: 'ann@laptop', releasable: true });
    expect(tf.details).toContainEqual(['Operation', 'OperationTypeApply']);
    const plain = { ...lockObject({}, 'locks/plain'), size: '5' };
    expect(inspectLock(plain, t0 + 1e9, { body: Buffer.from('lock\n') })).toMatchObject({
      format: 'plain',
      health: 'unknown',
      releasable: true,
    });
    expect(inspectLock(plain, t0 + 1e9, { body: Buffer.from('hello') })).toMatchObject({
      format: 'other',
      releasable: false,
    });
  });

  it('shows an object with an absurd TTL or expiry as unknown with a note instead of throwing', () => {
    const absurd: Record<string, string>[] = [
      { ...ours, ttl_ms: '1e300' },
      { identity: 'x', expires_at: '1e300' },
      { lock_owner: 'x', expires_sec: '99999999999999999999' },
      { ...ours, ttl_ms: 'soon' },
    ];
    for (const metadata of absurd) {
      const info = inspectLock(lockObject(metadata), t0);
      expect(info.health).toBe('unknown');
      expect(info.note).toBeTruthy();
      expect(info.expiresAt).toBeUndefined();
    }
  });
});
