// The counts beside the locks window move with its rows as the stream changes them, so a released lock never leaves
// "All 1" above an empty list while the server's coalesced counts are on their way.
import { describe, expect, it } from 'vitest';
import { applyChange } from '@/components/locks/lock-stream-cache';
import { withCountsOf } from '@/components/locks/window-counts';
import type { LocksData } from '@/lib/console/queries';
import type { LockInfo } from '@/lib/lock/types';

const lock = (name: string, health: LockInfo['health'], verdict?: LockInfo['verdict']) =>
  ({ name, bucket: 'lockboard-demo', health, ...(verdict ? { verdict } : {}) }) as LockInfo;

function windowOf(locks: LockInfo[]): LocksData {
  const counts = { expired: 0, overdue: 0, 'long-held': 0, unknown: 0, healthy: 0, free: 0 } as LocksData['counts'];
  const verdicts = { gone: 0, stalled: 0, alive: 0, unknown: 0 } as NonNullable<LocksData['verdicts']>;
  for (const l of locks) {
    counts[l.health]++;
    if (l.verdict) verdicts[l.verdict]++;
  }
  return { locks, total: locks.length, matched: locks.length, counts, verdicts } as unknown as LocksData;
}

const change = (upsert: LockInfo[], remove: string[]) => ({
  bucket: 'lockboard-demo',
  serverTime: '2026-01-01T00:00:00.000Z',
  upsert,
  remove,
  ...(upsert.length ? { order: upsert.map((l) => `${l.bucket}\u0000${l.name}`) } : {}),
});

describe('the counts beside a streamed window', () => {
  it('drop with a released lock and rise with a new one when no filter is on', () => {
    const old = windowOf([lock('ci/build', 'healthy', 'alive')]);
    const released = withCountsOf(old, applyChange(old, change([], ['ci/build'])), false);
    expect([released.total, released.matched, released.counts.healthy, released.verdicts!.alive]).toEqual([0, 0, 0, 0]);
    const taken = withCountsOf(released, applyChange(released, change([lock('ci/build', 'healthy')], [])), false);
    expect([taken.total, taken.matched, taken.counts.healthy, taken.locks.length]).toEqual([1, 1, 1, 1]);
  });

  it('move a lock between healths in place, the total unchanged', () => {
    const old = windowOf([lock('a', 'healthy', 'alive'), lock('b', 'healthy', 'alive')]);
    const next = withCountsOf(old, applyChange(old, change([lock('a', 'expired', 'gone')], [])), false);
    expect(next.total).toBe(2);
    expect([next.counts.healthy, next.counts.expired, next.verdicts!.alive, next.verdicts!.gone]).toEqual([1, 1, 1, 1]);
  });

  it('under a filter, move only the matched count for rows leaving or joining the window', () => {
    const old = windowOf([lock('a', 'expired')]);
    const next = withCountsOf(old, applyChange(old, change([], ['a'])), true);
    expect([next.matched, next.total, next.counts.expired]).toEqual([0, 1, 1]);
  });
});
