import { describe, expect, it } from 'vitest';
import { Backoff, waitBackoff } from '@/lib/lock/holding/backoff';
import { ServerClock } from '@/lib/lock/time';

describe('server clock', () => {
  it('estimates server time from the Date header plus monotonic time elapsed since it arrived', async () => {
    const clock = new ServerClock();
    clock.observeDateHeader('Wed, 01 Jan 2031 00:00:00 GMT');
    await new Promise((r) => setTimeout(r, 120));
    const now = clock.now() - Date.parse('2031-01-01T00:00:00Z');
    expect(now).toBeGreaterThanOrEqual(110);
    expect(now).toBeLessThan(1000);
  });

  it('keeps a finer estimate when a one-second Date header falls inside it, and follows a server clock that moved back', () => {
    const clock = new ServerClock();
    clock.observeStamp('2031-01-01T00:00:00.900Z');
    clock.observeDateHeader('Wed, 01 Jan 2031 00:00:00 GMT');
    expect(clock.now()).toBeGreaterThanOrEqual(Date.parse('2031-01-01T00:00:00.900Z'));
    clock.observeDateHeader('Tue, 01 Jan 2030 00:00:00 GMT');
    expect(clock.now()).toBeLessThan(Date.parse('2030-01-01T00:00:01Z'));
  });

  it('ignores a missing or malformed Date header', () => {
    const clock = new ServerClock();
    clock.observeDateHeader(undefined);
    clock.observeDateHeader('not a date');
    expect(clock.synced).toBe(false);
  });
});

describe('backoff', () => {
  it('draws full jitter below a doubling ceiling capped at 5 s', () => {
    const backoff = new Backoff(250, 5_000, () => 0.999_999);
    const ceilings = Array.from({ length: 8 }, () => backoff.next());
    expect(ceilings).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
    expect(new Backoff(250, 5_000, () => 0).next()).toBe(0);
  });

  it('re-checks a held lock at least every second however long the waiter has waited', () => {
    for (const r of [0, 0.5, 0.999_999]) {
      const poll = waitBackoff(() => r);
      const drawn = Array.from({ length: 200 }, () => poll.next());
      expect(Math.max(...drawn)).toBeLessThanOrEqual(1_000);
      expect(Math.min(...drawn.slice(2))).toBeGreaterThanOrEqual(850);
    }
  });

  it('waits at least a second after a 429 before the next write', () => {
    const backoff = new Backoff(250, 5_000, () => 0);
    expect(backoff.afterWriteFailure(429)).toBe(1_000);
    expect(backoff.afterWriteFailure(503)).toBe(0);
  });
});
