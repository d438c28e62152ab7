// Background reads of metadata-first listings: every item delivered exactly once however the batches fall, and never
// more reads in flight than the limit, even with callers arriving while slots free up.
import { describe, expect, it } from 'vitest';
import { ReadLimiter, readLater } from '@/lib/lock/support/later-reads';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('readLater', () => {
  it('delivers each of 2 000 reads exactly once, in batches, at most `limit` at a time', async () => {
    const limiter = new ReadLimiter(8);
    const items = Array.from({ length: 2_000 }, (_, i) => i);
    const got: number[] = [];
    let batches = 0;
    // three listings at once sharing one limiter, with reads of uneven length and a 1 ms batch window
    const lists = [0, 1, 2].map((k) =>
      readLater(
        items.filter((i) => i % 3 === k),
        limiter,
        async (i) => (await sleep(i % 4), i),
        (batch) => {
          batches++;
          got.push(...batch);
        },
        1,
      ),
    );
    await Promise.all(lists);
    expect(got.sort((a, b) => a - b)).toEqual(items);
    expect(batches).toBeGreaterThan(3);
    expect(batches).toBeLessThan(items.length);
    expect(limiter.peak).toBe(8);
  });

  it('keeps the limit when a slot frees while new callers arrive', async () => {
    const limiter = new ReadLimiter(2);
    let inFlight = 0;
    let most = 0;
    const job = () =>
      limiter.run(async () => {
        most = Math.max(most, ++inFlight);
        await sleep(1);
        inFlight--;
      });
    const first = Array.from({ length: 5 }, job);
    await sleep(0);
    const later = Array.from({ length: 5 }, job);
    await Promise.all([...first, ...later]);
    expect(most).toBe(2);
  });
});
