// The locks page's words for how each source stays fresh (lib/console/live-label.ts): pushed and checked, or polled
// and why, for a source whose pushes never came, stopped, or lost changes.
import { describe, expect, it } from 'vitest';
import { liveLabel, spanWords } from '@/lib/console/live-label';

describe('liveLabel', () => {
  it('says a pushed source is checked once an interval', () => {
    expect(liveLabel({ push: 'notifications to /api/gcs-events', checkMs: 60_000 })).toBe(
      'pushed (notifications to /api/gcs-events) · checked every 60 s',
    );
  });

  it('says a polled source’s pace, and why a source that takes pushes is polled all the same', () => {
    expect(liveLabel({ pollMs: 3_000 })).toBe('polled every 3 s');
    expect(liveLabel({ pollMs: 400 })).toBe('polled every 1 s');
    expect(liveLabel({ pollMs: 2_000, pushes: 'none yet' })).toBe('polled every 2 s: no pushes yet');
    expect(liveLabel({ pollMs: 2_000, pushes: { missed: 3, quietMs: 185_000 } })).toBe(
      'polled every 2 s: no pushes for 3 min',
    );
    expect(liveLabel({ pollMs: 2_000, pushes: { missed: 1 } })).toBe('polled every 2 s: pushes missed 1 change');
    expect(liveLabel({ pollMs: 2_000, pushes: { missed: 4 } })).toBe('polled every 2 s: pushes missed 4 changes');
  });

  it('words spans as people read them', () => {
    expect([500, 2_000, 61_000, 119_000, 180_000, 7_300_000].map(spanWords)).toEqual([
      '500 ms',
      '2 s',
      '61 s',
      '119 s',
      '3 min',
      '2 h',
    ]);
  });
});
