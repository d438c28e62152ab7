// One rule for how careful a release is, for one lock and for many: a bulk release never preselects a live holder, a
// lock of unknown liveness or one whose release ends a session, and including one asks its name, as one release does.
import { describe, expect, it } from 'vitest';
import type { LockHealth } from '@/lib/lock/types';
import { namesMissing, needsTypedName, preselected } from '@/lib/console/release-care';

const lock = (name: string, health: LockHealth, confirmByName?: boolean) => ({
  name,
  health,
  ...(confirmByName !== undefined ? { terms: { confirmByName } } : {}),
});
const key = (l: { name: string }) => l.name;

describe('release care', () => {
  const locks = [
    lock('expired', 'expired'),
    lock('overdue', 'overdue'),
    lock('healthy', 'healthy'),
    lock('long', 'long-held'),
    lock('terraform', 'unknown'),
    lock('advisory:72707369', 'expired', true),
    lock('marker', 'free'),
  ];

  it('asks the name of a live holder, an unknown liveness and a release that ends a session', () => {
    expect(locks.filter(needsTypedName).map(key)).toEqual(['healthy', 'long', 'terraform', 'advisory:72707369']);
  });

  it('preselects only what a single release would clear without its name', () => {
    expect([...preselected(locks, key)]).toEqual(['expired', 'overdue', 'marker']);
  });

  it('holds the bulk release until each included lock that needs it has its exact name typed', () => {
    const chosen = [locks[0]!, locks[2]!, locks[5]!];
    expect(namesMissing(chosen, {}, key).map(key)).toEqual(['healthy', 'advisory:72707369']);
    expect(namesMissing(chosen, { healthy: 'healthy', 'advisory:72707369': 'advisory:7270736' }, key).map(key)).toEqual(
      ['advisory:72707369'],
    );
    expect(namesMissing(chosen, { healthy: 'healthy', 'advisory:72707369': 'advisory:72707369' }, key)).toEqual([]);
  });
});

describe('the reason field', () => {
  it('counts toward the routes’ own limit and says when a longer text was cut', async () => {
    const { REASON_MAX, reasonCounter } = await import('@/components/ui/modal-form');
    const { reasonField } = await import('@/lib/server/release');
    expect(reasonField.safeParse('r'.repeat(REASON_MAX)).success).toBe(true);
    expect(reasonField.safeParse('r'.repeat(REASON_MAX + 1)).success).toBe(false);
    expect(reasonCounter(12)).toBe('12 / 500 characters');
    expect(reasonCounter(REASON_MAX)).toMatch(/the limit; anything longer is cut/);
  });
});

describe('after a release', () => {
  it('reads the lists, the lock pages, the holders table and churn again (nothing else)', async () => {
    const { QueryClient } = await import('@tanstack/react-query');
    const { refreshAfterRelease } = await import('@/lib/console/queries');
    const client = new QueryClient();
    const keys = [['locks', 'all'], ['lock', '', 'a'], ['audit-lock', '', 'a', 200], ['audit-summary', {}], ['other']];
    for (const key of keys) client.setQueryData(key, { seen: true });
    await refreshAfterRelease(client);
    const stale = keys.map((key) => client.getQueryState(key)?.isInvalidated);
    expect(stale).toEqual([true, true, true, true, false]);
    client.clear();
  });
});
