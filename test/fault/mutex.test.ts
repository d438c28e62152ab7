// A bounded run of the mutual-exclusion checker (npm run test:fault runs a larger one).
import { describe, expect, it } from 'vitest';
import { runMutexCheck } from './mutex-check';
import { FencedResource } from './resource';

describe('fenced resource', () => {
  it('rejects tokens smaller than the largest seen and counts sections that overlap', () => {
    const r = new FencedResource();
    expect(r.begin('a', 10n)).toBe(true);
    expect(r.write('a', 10n)).toBe(true);
    expect(r.begin('b', 11n)).toBe(true);
    expect(r.report.lockOverlaps).toBe(1);
    expect(r.write('a', 10n)).toBe(false);
    expect(r.report.rejectedStaleWrites).toBe(1);
    expect(r.report.acceptedOverlaps).toBe(0);
  });
});

describe('mutual exclusion under faults', () => {
  it('accepts no overlapping writes with workers killed and paused, under latency, 503s and dropped responses', async () => {
    const report = await runMutexCheck({
      workers: 3,
      sections: 4,
      ttlMs: 2000,
      chaosEveryMs: 2000,
      maxDurationMs: 60_000,
    });
    expect(report.acceptedOverlaps).toBe(0);
    expect(report.sectionsCompleted).toBeGreaterThan(0);
    expect(report.acceptedWrites).toBeGreaterThan(0);
  }, 120_000);
});
