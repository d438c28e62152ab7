// "Seen since" for formats that record no acquire time (lib/lock/support/seen-since.ts): the first sighting's time is kept
// while either of the last two passes saw the key, forgotten after two passes without it, and the table grows and
// drops forgotten entries without losing a live one.
import { describe, expect, it } from 'vitest';
import { SeenSince } from '@/lib/lock/support/seen-since';

describe('SeenSince', () => {
  it('keeps the first sighting while the key is seen, and a new version starts again', () => {
    const s = new SeenSince();
    s.newPass();
    expect(s.since('lock:a\u0000v1', 1_000)).toBe(1_000);
    s.newPass();
    expect(s.since('lock:a\u0000v1', 5_000)).toBe(1_000);
    expect(s.since('lock:a\u0000v2', 6_000)).toBe(6_000);
    expect(s.since('lock:b\u0000v1', 7_000)).toBe(7_000);
  });

  it('is still known in the pass after the one that saw it (an interleaved listing reads it late)', () => {
    const s = new SeenSince();
    s.newPass();
    s.since('kept', 100);
    s.newPass();
    s.since('other', 500);
    expect(s.since('kept', 900)).toBe(100);
  });

  it('forgets a key two whole passes missed', () => {
    const s = new SeenSince();
    s.newPass();
    s.since('gone', 100);
    s.newPass();
    s.newPass();
    expect(s.since('gone', 900)).toBe(900);
  });

  it('grows past a million-slot table without losing a live entry, and drops what is forgotten', () => {
    const s = new SeenSince();
    s.newPass();
    for (let i = 0; i < 200_000; i++) s.since(`lock:${i}\u0000token-${i}`, i);
    s.newPass();
    for (let i = 0; i < 200_000; i += 2) expect(s.since(`lock:${i}\u0000token-${i}`, -1)).toBe(i);
    s.newPass();
    s.newPass(); // no earlier key was seen by this pass or the one before
    for (let i = 200_000; i < 400_000; i++) s.since(`lock:${i}\u0000token-${i}`, i);
    expect(s.since('lock:1\u0000token-1', -1)).toBe(-1);
    expect(s.since('lock:400000\u0000token-400000', 7)).toBe(7);
    expect(s.size).toBe(200_002);
  });
});
