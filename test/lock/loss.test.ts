// Loss is pushed to the holder: force-release, hanging storage, a paused process.
import { describe, expect, it, vi } from 'vitest';
import { acquireLock, forceReleaseLock, LockLostError } from '@/lib/lock';
import { startEmulatorPerTest, type Target } from '../helpers/gcs';
import { lockOptions } from '../helpers/lock';
import { abortedWithin, delay, requestsFor } from '../helpers/requests';

let t: Target;
startEmulatorPerTest((target) => (t = target));

const opts = (name: string, extra: Record<string, unknown> = {}) =>
  lockOptions(t, { ttlMs: 4000, refreshIntervalMs: 500 })(name, extra);

describe('loss', () => {
  it('aborts the signal with released-by-operator within refresh interval + request timeout of a force-release', async () => {
    const lock = await acquireLock(opts('forced'));
    const lost = new Promise<LockLostError>((resolve) =>
      lock.addEventListener('lost', (e) => resolve((e as CustomEvent<LockLostError>).detail)),
    );
    const result = await forceReleaseLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/forced',
      generation: lock.generation,
      audit: false,
    });
    expect(result.outcome).toBe('released');
    await abortedWithin(lock.signal, 500 + 500 + 100);
    expect(lock.signal.reason).toBeInstanceOf(LockLostError);
    expect((lock.signal.reason as LockLostError).reason).toBe('released-by-operator');
    expect((await lost).reason).toBe('released-by-operator');
    expect(lock.isHealthy).toBe(false);
    expect(() => lock.assertHealthy()).toThrow(LockLostError);
    expect(await lock.release()).toEqual({ outcome: 'lost' });
  });

  it('declares the lock lost by the protocol deadline while every request hangs', async () => {
    const lock = await acquireLock(opts('hang', { ttlMs: 3000, refreshIntervalMs: 400 }));
    t.emulator!.faults.set({ rules: [{ latencyMs: [60_000, 60_000] }] });
    const start = performance.now();
    // deadline: TTL - max(2 × refresh, TTL/10) = 3000 - 800 = 2200 ms after the last confirmed refresh was sent
    await abortedWithin(lock.signal, 3000);
    const elapsed = performance.now() - start;
    expect(elapsed).toBeLessThanOrEqual(2200 + 50);
    expect((lock.signal.reason as LockLostError).reason).toBe('refresh-failed');
    t.emulator!.faults.clear();
  });

  it('declares the lock lost after three failed refreshes in a row', async () => {
    const lock = await acquireLock(opts('errors', { ttlMs: 6000, refreshIntervalMs: 300 }));
    t.emulator!.faults.set({ rules: [{ method: 'PATCH', errorRate: 1, errorStatus: 500 }] });
    const start = performance.now();
    await abortedWithin(lock.signal, 3000);
    expect((lock.signal.reason as LockLostError).reason).toBe('refresh-failed');
    expect((lock.signal.reason as Error).message).toMatch(/3 refreshes in a row failed/);
    expect(performance.now() - start).toBeLessThan(1500);
  });

  it('sees isHealthy === false in a process paused past the deadline, before any refresh completes', async () => {
    const lock = await acquireLock(opts('paused', { ttlMs: 2000, refreshIntervalMs: 600 }));
    expect(lock.isHealthy).toBe(true);
    const until = performance.now() + 2000;
    while (performance.now() < until) {
      // a blocked event loop: no timer and no refresh can run
    }
    expect(lock.isHealthy).toBe(false);
    expect(() => lock.assertHealthy()).toThrow(/lost \(refresh-failed\)/);
    expect(lock.signal.aborted).toBe(true);
    await delay(10);
  });

  it('does not mistake its own refresh whose response was dropped for a takeover', async () => {
    const lock = await acquireLock(opts('dropped', { ttlMs: 6000, refreshIntervalMs: 300 }));
    t.emulator!.faults.set({ rules: [{ method: 'PATCH', dropResponseRate: 1 }] });
    await delay(450);
    t.emulator!.faults.clear();
    await delay(900);
    expect(lock.signal.aborted).toBe(false);
    expect(lock.isHealthy).toBe(true);
    expect(await lock.release()).toEqual({ outcome: 'released' });
  });

  it('releases its own lock when the release lands on a slow refresh in flight', async () => {
    const lock = await acquireLock(opts('slow-refresh', { ttlMs: 6000, refreshIntervalMs: 500 }));
    t.emulator!.faults.set({ rules: [{ method: 'PATCH', latencyMs: [400, 400], times: 1 }] });
    await vi.waitFor(() => expect(pendingPatches()).toBe(1), { timeout: 2000, interval: 5 });
    expect(await lock.release()).toEqual({ outcome: 'released' });
    expect(lock.signal.aborted).toBe(false);
    const [exists] = await t.storage.bucket(t.bucket).file('locks/slow-refresh').exists();
    expect(exists).toBe(false);
    const deletes = requestsFor(t.emulator!, 'locks/slow-refresh').filter((e) => e.method === 'DELETE');
    expect(deletes.map((e) => e.status)).toEqual([204]);
  });

  it('releases its own lock when the refresh in flight at release time lost its response', async () => {
    const lock = await acquireLock(opts('dropped-at-release', { ttlMs: 6000, refreshIntervalMs: 500 }));
    t.emulator!.faults.set({ rules: [{ method: 'PATCH', latencyMs: [300, 300], dropResponseRate: 1, times: 1 }] });
    await vi.waitFor(() => expect(pendingPatches()).toBe(1), { timeout: 2000, interval: 5 });
    expect(await lock.release()).toEqual({ outcome: 'released' });
    expect(lock.signal.aborted).toBe(false);
    const [exists] = await t.storage.bucket(t.bucket).file('locks/dropped-at-release').exists();
    expect(exists).toBe(false);
  });
});

/** PATCH requests the emulator has received but not yet answered. */
function pendingPatches(): number {
  return t.emulator!.requests.inFlight.filter((e) => e.method === 'PATCH').length;
}
