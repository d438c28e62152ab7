// Reading a trail whose record times are their writer's clock: a record from a writer minutes slow lands behind the
// narrow overlapping window, and is still told by the wide read back (once a minute); a trail whose records carry the
// store's time is never read wide.
import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '@/lib/lock/audit/record';
import { OVERLAP_MS, TrailWindows, WIDE_EVERY_MS, WIDE_MS } from '@/lib/server/notify/trail-window';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const rec = (id: string, at: number, at_from?: AuditRecord['at_from']): AuditRecord => ({
  id,
  at: new Date(at).toISOString(),
  lock: 'deploy',
  event: 'force-released',
  ...(at_from ? { at_from } : {}),
});

/** The records of `trail` a reader following `w` reads, pass by pass every 5 s from T0 to `end`. */
function follow(w: TrailWindows, trail: AuditRecord[], end: number): Set<string> {
  const told = new Set<string>();
  for (let now = T0; now <= end; now += 5_000) {
    const win = w.next('t', now);
    const got = trail.filter((r) => Date.parse(r.at) >= win.from && Date.parse(r.at) <= win.to && r.id <= String(now));
    got.forEach((r) => told.add(r.id));
    w.read('t', now, win.wide, got);
  }
  return told;
}

describe('trail windows', () => {
  it('tells a record of a writer five minutes slow, within a minute and a bit', () => {
    const w = new TrailWindows(T0 - 600_000);
    // ids are the real time the record became readable (compared as strings of equal length)
    const written = T0 + 300_000;
    const trail = [
      rec(String(T0 + 10_000), T0 + 10_000, 'reported'),
      rec(String(written), written - 5 * 60_000, 'reported'),
    ];
    expect(follow(w, trail, written + WIDE_EVERY_MS + 5_000).has(String(written))).toBe(true);
    // the narrow window alone would not: its start is 2 min before the last read
    expect(written - 5 * 60_000).toBeLessThan(written - 5_000 - OVERLAP_MS);
  });

  it('never reads a store-clocked trail wide', () => {
    const w = new TrailWindows(T0 - 600_000);
    const first = w.next('t', T0);
    w.read('t', T0, first.wide, [rec('a', T0 - 1_000)]);
    for (let now = T0 + 5_000; now < T0 + 5 * 60_000; now += 5_000) {
      const win = w.next('t', now);
      expect(win.wide).toBe(false);
      expect(win.from).toBeGreaterThan(now - WIDE_MS);
      w.read('t', now, win.wide, []);
    }
  });
});
