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

  it('reads a Ruby-format lock by expires_at', () => {
    const ruby = lockObject({ identity: 'ruby-host', expires_at: String((t0 + 30_000) / 1000) });
    expect(inspectLock(ruby, t0 + 29_000)).toMatchObject({ format: 'ruby', health: 'healthy' });
    expect(inspectLock(ruby, t0 + 30_000).health).toBe('expired');
  });

  it('never judges a Terraform or plain object stale, and reads Terraform owner fields', () => {
    const tf = inspectLock(lockObject({}, 'state/prod.tflock'), t0 + 1e9, {
      terraformBody: { ID: 'x', Operation: 'OperationTypeApply', Who: 'ann@laptop', Created: 'c', Path: 'p' },
    });
    expect(tf).toMatchObject({
      format: 'terraform',
      health: 'unknown',
      identity: 'ann@laptop',
      purpose: 'OperationTypeApply',
    });
    expect(inspectLock(lockObject({}, 'locks/plain'), t0 + 1e9)).toMatchObject({
      format: 'unknown',
      health: 'unknown',
    });
  });
});
