// The watcher's pace for a source that takes pushes (lib/server/live/push-pace.ts), on a clock the test moves: listed
// only as a check while pushes tell everything, polled at the store's pace when they never came, stopped, or lost
// changes, and trusted again once they come and a check interval passes with nothing missed.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Row } from '@/lib/lock/query/lock-index';
import { changedHands, liveModeOf, PushPace } from '@/lib/server/live/push-pace';

const CHECK = 60_000;
const FAST = 2_000;
const VIA = 'notifications to /api/gcs-events';
let now = 0;
let pace: PushPace;

beforeEach(() => {
  now = 1_000_000;
  pace = new PushPace({ checkMs: CHECK, settleMs: 1_000, now: () => now });
});

/** A listing pass that starts now, takes 100 ms and finds `changed` held anew, new or gone. */
function pass(changed: string[] = []): void {
  const started = now;
  now += 100;
  pace.listed(changed, started);
}

/** Pushed, then listed once as a baseline: the state of a source whose pushes were trusted. */
function trusted(): void {
  pace.pushed(['locks/a'], VIA);
  pass(['locks/a', 'locks/b']);
  expect(pace.mode.mode).toBe('pushed');
}

describe('PushPace', () => {
  it('polls a source never pushed at its store’s pace, and says no push came yet where it takes them', () => {
    pass();
    pass(['locks/a']);
    now += 5_000;
    expect(pace.mode).toEqual({ mode: 'waiting' });
    expect(pace.intervalMs(FAST)).toBe(FAST);
    expect(liveModeOf(pace.mode, CHECK, FAST, true)).toEqual({ pollMs: FAST, pushes: 'none yet' });
    expect(liveModeOf(pace.mode, CHECK, FAST, false)).toEqual({ pollMs: FAST });
  });

  it('lists a pushed source only once a check interval while its checks find only what was pushed', () => {
    trusted();
    for (let minute = 1; minute <= 10; minute++) {
      now += 20_000;
      pace.pushed(['locks/c' + minute], VIA);
      now += CHECK - 20_000;
      pass(['locks/c' + minute]);
      now += 1_500; // past the settling
      expect(pace.mode).toEqual({ mode: 'pushed', via: VIA });
      expect(pace.intervalMs(FAST)).toBe(CHECK);
    }
    expect(liveModeOf(pace.mode, CHECK, FAST, true)).toEqual({ push: VIA, checkMs: CHECK });
  });

  it('counts a change as pushed when its push arrives just after the listing that found it', () => {
    trusted();
    now += CHECK / 2;
    pace.pushed(['locks/other'], VIA);
    now += CHECK / 2;
    pass(['locks/late']);
    expect(pace.settlesAt()).toBe(now + 1_000);
    now += 300;
    pace.pushed(['locks/late'], VIA);
    now += 1_000;
    expect(pace.mode.mode).toBe('pushed');
    expect(pace.settlesAt()).toBeUndefined();
  });

  it('goes back to the store’s pace when a check finds a lock no push announced, once its push could have come', () => {
    trusted();
    now += 50_000;
    pace.pushed(['locks/last'], VIA);
    now += CHECK - 50_000; // the push route went away 10 s ago: nothing arrives, and locks come and go
    pass(['locks/unannounced', 'locks/gone']);
    expect(pace.mode.mode, 'judged only once its pushes had time to arrive').toBe('pushed');
    expect(pace.settlesAt()).toBe(now + 1_000);
    now += 1_000;
    expect(pace.mode).toEqual({ mode: 'polled', missed: 2 });
    expect(pace.intervalMs(FAST)).toBe(FAST);
    now += 2 * CHECK; // still nothing pushed: polled, however quiet the store is, and saying for how long
    pass();
    expect(pace.mode).toMatchObject({ mode: 'polled', quietMs: 2 * CHECK + 11_200 });
  });

  it('judges a check at once when nothing at all was pushed for a whole interval (no push is on its way)', () => {
    trusted();
    now += CHECK;
    pass(['locks/unannounced']);
    expect(pace.settlesAt()).toBeUndefined();
    expect(pace.mode).toEqual({ mode: 'polled', missed: 1, quietMs: CHECK + 200 });
  });

  it('says pushes missed changes when they still come but lose some (stopped only after a quiet check interval)', () => {
    trusted();
    now += 30_000;
    pace.pushed(['locks/told'], VIA);
    now += 30_000;
    pass(['locks/told', 'locks/lost']);
    now += 1_000;
    pace.pushed(['locks/other'], VIA);
    expect(pace.mode).toEqual({ mode: 'polled', missed: 1 });
  });

  it('trusts pushes again once they come and a check interval passes with no listing finding a change they missed', () => {
    trusted();
    now += CHECK;
    pass(['locks/lost']);
    now += 1_000;
    expect(pace.mode.mode).toBe('polled');
    // pushes are back; the fast listings find only what they announced
    let n = 0;
    const missedAt = now - 1_000;
    while (now - missedAt < CHECK) {
      const name = `locks/new-${n++}`;
      pace.pushed([name], VIA);
      now += FAST - 100;
      pass([name]);
      if (now - missedAt < CHECK) expect(pace.mode.mode).toBe('polled');
    }
    now += 1_000;
    expect(pace.mode).toEqual({ mode: 'pushed', via: VIA });
  });

  it('stays polled while pushes come but the fast listings keep finding changes they missed', () => {
    trusted();
    now += CHECK;
    pass(['locks/lost-0']);
    for (let i = 1; i <= 60; i++) {
      pace.pushed([`locks/told-${i}`], VIA);
      now += FAST - 100;
      pass([`locks/told-${i}`, ...(i % 5 === 0 ? [`locks/lost-${i}`] : [])]);
    }
    now += 1_000;
    expect(pace.mode).toEqual({ mode: 'polled', missed: 1 });
  });

  it('trusts an open change feed from the start, and holds neither the first pass nor one after a reported gap against it', () => {
    pace.opened('keyspace notifications');
    expect(pace.mode).toEqual({ mode: 'pushed', via: 'keyspace notifications' });
    pass(['locks/a', 'locks/b', 'locks/c']); // the first pass lists everything
    now += CHECK;
    pace.gap(); // the subscription reconnected: events were lost, and it said so
    pass(['locks/d']);
    now += 1_000;
    expect(pace.mode.mode).toBe('pushed');
    now += CHECK;
    pass(['locks/e']); // a later check that finds a change no event told is held against it
    now += 1_000;
    expect(pace.mode).toMatchObject({ mode: 'polled', missed: 1 });
  });

  it('forgets pushes from before the last listing, so it holds one interval of names', () => {
    trusted();
    for (let i = 0; i < 1_000; i++) pace.pushed([`locks/old-${i}`], VIA);
    now += CHECK;
    pass();
    now += CHECK;
    pass(['locks/old-1']); // pushed two intervals ago, changed again since: not announced
    now += 1_000;
    expect(pace.mode).toMatchObject({ mode: 'polled', missed: 1 });
  });
});

describe('changedHands', () => {
  const row = (name: string, generation: string) => ({ name, generation }) as Row;

  it('names new, gone and re-taken locks, not refreshes, health or verdicts moving', () => {
    const changes = [
      { after: row('locks/new', '1') },
      { before: row('locks/gone', '2') },
      { before: row('locks/taken', '3'), after: row('locks/taken', '4') },
      { before: row('locks/refreshed', '5'), after: row('locks/refreshed', '5') },
    ];
    expect(changedHands(changes)).toEqual(['locks/new', 'locks/gone', 'locks/taken']);
  });
});
