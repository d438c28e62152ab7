// The console's words on its first screens: a 403 names the role or grant missing, counted nouns agree with their
// count, and "N other objects skipped" keeps a bounded sample of why (never a log).
import { describe, expect, it } from 'vitest';
import { forbiddenReason, pageNeed } from '@/lib/console/page-roles';
import { ListingStatus, SKIPPED_WHY_SHOWN, stateForScope } from '@/lib/server/listing-status';
import { plural } from '@/lib/text/plural';
import { formatCount } from '@/lib/text/format';

describe('the 403 page', () => {
  it('tells a viewer on /webhooks that it needs the operator role over every lock', () => {
    const need = pageNeed('/webhooks');
    const text = forbiddenReason(need, { email: 'viewer@demo.lockboard', role: 'viewer' });
    expect(text).toMatch(
      /^The Webhooks page needs the operator role over every lock \("\*"\); viewer@demo\.lockboard is a viewer\./,
    );
    expect(text).toMatch(/an operator grant on "\*"/);
  });

  it('tells an operator of some locks only that it lacks a grant on "*", not that it is on no list', () => {
    const text = forbiddenReason(pageNeed('/webhooks'), { email: 'ci-team@demo.lockboard', role: 'operator' });
    expect(text).toMatch(/ci-team@demo\.lockboard is operator over some locks only/);
    expect(text).not.toMatch(/no grant/);
  });

  it('tells an account with no grant which role a lock page needs', () => {
    const text = forbiddenReason(pageNeed('/locks/ci/build'), { email: 'mallory@elsewhere.example', role: null });
    expect(text).toMatch(/mallory@elsewhere\.example has no grant: it is not on the Lockboard viewer or operator list/);
    expect(text).toMatch(/Every page needs at least the viewer role\./);
  });
});

describe('counted nouns', () => {
  it('say "1 lock" and "2 locks", "0 locks", with the count formatted as asked', () => {
    expect(plural('lock', 1)).toBe('1 lock');
    expect(plural('lock', 0)).toBe('0 locks');
    expect(plural('lock', 2)).toBe('2 locks');
    expect(plural('other object', 1)).toBe('1 other object');
    expect(plural('lock', 12_345, { format: formatCount })).toBe(`${formatCount(12_345)} locks`);
    expect(plural('entry', 3, { plural: 'entries' })).toBe('3 entries');
  });
});

describe('what a listing skipped', () => {
  it("keeps at most SKIPPED_WHY_SHOWN of the store's reasons per pass, and drops them for a scoped reader", () => {
    const status = new ListingStatus();
    status.begin(undefined);
    const why = Array.from({ length: 25 }, (_, i) => `x${i}: not valid UTF-8`);
    status.page(40, 25, '2026-01-01T00:00:00.000Z', why);
    status.finish();
    const state = status.state('file:///srv/locks');
    expect(state.skipped).toBe(25);
    expect(state.skippedWhy).toEqual(why.slice(0, SKIPPED_WHY_SHOWN));
    expect(stateForScope(state, true).skippedWhy).toBeUndefined();
    expect(stateForScope(state, false).skippedWhy).toHaveLength(SKIPPED_WHY_SHOWN);
    // the next pass starts its own sample: a reason fixed since is no longer shown
    status.begin(undefined);
    status.page(40, 0, '2026-01-01T00:01:00.000Z');
    status.finish();
    expect(status.state('file:///srv/locks').skippedWhy).toBeUndefined();
  });
});
