// The list and the lock page give one verdict for one lock: an etcd lock's row kept in the console's index is not
// turned "expired" at the read's lease expiry (a keepalive renews the lease with no write the watch sees, and a lease
// that runs out has its keys deleted), so it says what a fresh read on the lock page says.
import { describe, expect, it } from 'vitest';
import { compact, healthAt } from '@/lib/lock/query/row';
import { etcdView } from '@/lib/lock/stores/etcd/view';

const holder = {
  key: 'locks/deploy/694d8c1ba1a3b2c4',
  value: Buffer.from(''),
  createRevision: '41',
  modRevision: '41',
  lease: '7587870271925372612',
};

describe('an etcd lock in the list and on its page', () => {
  it('keeps the health of its read until the next read, never expired by waiting alone', () => {
    const now = Date.now();
    const view = etcdView(
      { name: 'locks/deploy', format: 'etcd-mutex', label: 'etcd concurrency.Mutex', holder, waiters: [] },
      { ttl: 10, granted: 10, keys: [holder.key] },
      { source: 'etcd://127.0.0.1:2379/', now, firstSeen: new Map() },
    );
    expect(view.health).toBe('healthy');
    const row = compact(view);
    // 20 s on, twice the TTL: the holder renewed meanwhile (etcd saw keepalives, the watch no write)
    expect(healthAt(row, now + 20_000)).toBe(view.health);
  });
});
