// What each role is offered (#62): the header links only pages the account may open (every console page on disk
// has a rule, each demo account's links are exactly the pages its grants open, ci-team gets no Webhooks link); a
// release control is red only where the caller may release a lock whose holder is done; a bulk release counts only
// what it would tick, never a healthy lock, and never ticks a live holder; the Webhooks page lists deliveries newest
// first.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { mayOpen, NAV_PAGES } from '@/lib/console/page-roles';
import { holderDone, readyCount, releaseTone } from '@/lib/console/release-tone';
import { preselected } from '@/lib/console/release-care';
import type { LockHealth } from '@/lib/lock/types';
import type { Verdict } from '@/lib/lock/verdict/verdict';

const CONSOLE = join(__dirname, '../../app/(console)');
/** Every top-level console page, found on disk as the route guards test finds them. */
const pagesOnDisk = readdirSync(CONSOLE, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(CONSOLE, d.name, 'page.tsx')))
  .map((d) => `/${d.name}`)
  .sort();

describe('the header links', () => {
  beforeAll(() => {
    Object.assign(process.env, {
      LOCKBOARD_DEMO: '1',
      LOCKBOARD_SOURCES: 'gs://lockboard-demo/ci/',
      LOCKBOARD_GCS_ENDPOINT: 'http://127.0.0.1:1',
      NEXTAUTH_SECRET: 'role-controls-secret-0123456789abcdef',
    });
    delete process.env.LOCKBOARD_ACCESS_FILE;
    delete process.env.LOCKBOARD_OPERATORS;
    delete process.env.LOCKBOARD_VIEWERS;
  });

  it('have a rule for every console page on disk', () => {
    expect(pagesOnDisk.length).toBeGreaterThanOrEqual(3);
    expect([...NAV_PAGES].sort()).toEqual(pagesOnDisk);
  });

  it("link each demo account to exactly the pages its grants open (the pages' own rule)", async () => {
    const { DEMO_ACCOUNTS } = await import('@/lib/server/auth/demo-accounts');
    const { accessOf, isEveryLock, scopeOf } = await import('@/lib/server/auth/access');
    const links: Record<string, string[]> = {};
    for (const account of DEMO_ACCOUNTS) {
      const access = accessOf(account.email, []);
      expect(access.role, account.email).toBe(account.role);
      links[account.email] = NAV_PAGES.filter((p) =>
        mayOpen(p, access.role, (role) => isEveryLock(scopeOf(access, role))),
      );
    }
    expect(links).toEqual({
      'operator@demo.lockboard': ['/locks', '/churn', '/webhooks', '/sources'],
      'releaser@demo.lockboard': ['/locks', '/churn'],
      'viewer@demo.lockboard': ['/locks', '/churn'],
      'ci-team@demo.lockboard': ['/locks', '/churn'],
    });
    expect(mayOpen('/locks', null, () => true)).toBe(false);
  });
});

const lock = (name: string, health: LockHealth, verdict?: Verdict, releasable = true) => ({
  name,
  health,
  releasable,
  ...(verdict ? { verdict } : {}),
});

describe('a release control', () => {
  it('is red only where the caller may release a lock whose holder is done', () => {
    expect(releaseTone(lock('a', 'healthy', 'alive'))).toBe('quiet');
    expect(releaseTone(lock('a', 'healthy', 'unknown'))).toBe('quiet');
    expect(releaseTone(lock('a', 'long-held', 'unknown'))).toBe('quiet');
    expect(releaseTone(lock('a', 'expired', 'unknown'))).toBe('loud');
    expect(releaseTone(lock('a', 'overdue'))).toBe('loud');
    expect(releaseTone(lock('a', 'healthy', 'gone'))).toBe('loud');
    expect(releaseTone(lock('a', 'healthy', 'stalled'))).toBe('loud');
    // a releaser's healthy lock (not releasable for it) and an alive holder past its expiry stay quiet
    expect(releaseTone(lock('a', 'expired', 'unknown', false))).toBe('quiet');
    expect(holderDone(lock('a', 'expired', 'alive'))).toBe(false);
  });
});

describe('a bulk release', () => {
  const counts = { expired: 2, overdue: 1, 'long-held': 0, unknown: 4, healthy: 5, free: 1 };

  it('counts only what it would tick: expired for a releaser; expired, overdue and markers for an operator', () => {
    expect(readyCount(counts, {}, false)).toBe(2);
    expect(readyCount(counts, {}, true)).toBe(4);
    expect(readyCount(counts, { health: 'healthy' }, true)).toBe(0);
    expect(readyCount(counts, { health: 'overdue' }, false)).toBe(0);
    expect(readyCount(counts, { health: 'overdue' }, true)).toBe(1);
    expect(readyCount({ ...counts, expired: 0, overdue: 0, free: 0 }, {}, true)).toBe(0);
  });

  it('gives no count where a text or verdict filter narrows the match beyond the counts', () => {
    expect(readyCount(counts, { q: 'web' }, true)).toBeNull();
    expect(readyCount(counts, { verdict: 'gone' }, true)).toBeNull();
    expect(readyCount(undefined, {}, true)).toBeNull();
  });

  it('never ticks a healthy lock or a holder the verdict says is alive', () => {
    const locks = [
      lock('old', 'expired', 'unknown'),
      lock('live', 'healthy', 'alive'),
      lock('odd', 'expired', 'alive'),
    ];
    expect([...preselected(locks, (l) => l.name)]).toEqual(['old']);
  });
});

describe("the Webhooks page's deliveries", () => {
  it('are in time order, newest event first, whatever order they were queued in', async () => {
    const { newestFirst } = await import('@/lib/console/webhooks');
    const row = (id: string, at: string) =>
      ({
        id,
        webhook: 'w',
        event: 'force-released',
        lock: id,
        at,
        status: 'delivered',
        attempts: 1,
        updatedAt: at,
      }) as const;
    const queued = [
      row('b', '2026-11-29T08:00:00Z'),
      row('a', '2026-11-29T07:50:00Z'),
      row('c', '2026-11-29T08:05:00Z'),
    ];
    expect(newestFirst(queued).map((d) => d.id)).toEqual(['c', 'b', 'a']);
    expect(queued.map((d) => d.id)).toEqual(['b', 'a', 'c']); // the queue's own order untouched
  });
});
