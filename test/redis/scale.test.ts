// CI-sized scale check (the bench runs the same at 10 000 to 1 000 000): 50 000 redis-py locks among 100 000 keys in a
// real redis-server, indexed page by page as the console's watcher does. Every window is bounded whatever the source
// holds; counts, filters and sorts cover every lock; following cursors reaches each lock once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { runQuery, type LockQuery } from '@/lib/lock/query/query';
import type { LockIndex } from '@/lib/lock/query/lock-index';
import { expand } from '@/lib/lock/query/row';
import { rowView } from '@/lib/lock/query/row-view';
import { startRedis } from '../helpers/redis';
import { fillRedis, indexRedis } from '../helpers/scale';

const LOCKS = 50_000;
let r: Awaited<ReturnType<typeof startRedis>>;
let index: LockIndex;
let firstPageLocks = 0;

beforeAll(async () => {
  r = await startRedis();
  await fillRedis(r.client as never, LOCKS);
  const store = new RedisLockStore({ client: r.client as never, source: 'redis://127.0.0.1/0' });
  const done = await indexRedis(store, (ix) => (firstPageLocks ||= ix.size));
  index = done.index;
}, 120_000);
afterAll(() => r?.stop());

const window = (q: Partial<LockQuery>) =>
  runQuery([{ id: 'redis://127.0.0.1/0', rows: index.rows.values(), counts: index.counts, size: index.size }], {
    sort: 'name',
    order: 'asc',
    limit: 100,
    ...q,
  });

describe('a source of 50 000 locks', () => {
  it('has rows to show after its first page, long before the whole pass', () => {
    expect(firstPageLocks).toBeGreaterThan(0);
    expect(firstPageLocks).toBeLessThan(LOCKS);
  });

  it('counts every lock by health, and no key that is not a lock', () => {
    expect(index.size).toBe(LOCKS);
    expect(index.counts.healthy).toBe(LOCKS);
  });

  it('answers a window of 100 rows in under 100 KB, and never more than its limit', () => {
    const w = window({});
    expect(w.rows).toHaveLength(100);
    expect(w.total).toBe(LOCKS);
    expect(JSON.stringify(w.rows.map((x) => rowView(expand(x.row)))).length).toBeLessThan(100_000);
    expect(window({ limit: 1000 }).rows).toHaveLength(1000);
  });

  it('filters over every lock: an exact name, and a pattern that matches a known number', () => {
    expect(window({ q: 'lock:49999' }).rows.map((x) => x.row.name)).toEqual(['lock:49999']);
    expect(window({ q: 'lock:4999' }).matched).toBe(11); // 4999 and 49990..49999
  });

  it('sorts the whole set (expiring soonest first) and pages it by cursor, each lock once', () => {
    const soonest = window({ sort: 'expires', limit: 10 });
    // the tenth of the locks with a one-hour TTL expire first
    expect(soonest.rows.every((x) => Number(x.row.name.slice(5)) % 10 === 0)).toBe(true);
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const w = window({ limit: 1000, ...(cursor ? { cursor } : {}) });
      for (const x of w.rows) seen.add(x.row.name);
      cursor = w.nextCursor;
    }
    expect(seen.size).toBe(5000);
  });
});
