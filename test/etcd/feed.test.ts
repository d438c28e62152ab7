// The etcd source's change feed on Debian's etcd: a watch on the prefix names the lock a real `etcdctl lock`
// changed within a second, resumes after the server restarts, and reports a compacted revision as missed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeFeed, FeedingStore, LockStore } from '@/lib/lock/store';
import { openSource, parseSource } from '@/lib/lock/stores';
import { startEtcdFeed } from '@/lib/lock/stores/etcd/feed';
import { Etcd3 } from 'etcd3';
import { startEtcd, type TestEtcd } from '../helpers/etcd';
import { delay } from '../helpers/requests';

let etcd: TestEtcd;
let store: LockStore;
let client: Etcd3;

beforeAll(async () => {
  etcd = await startEtcd();
  store = await openSource(parseSource(`etcd://${etcd.endpoint}/jobs/`), { env: {}, role: 'console' });
  client = new Etcd3({ hosts: `http://${etcd.endpoint}` });
});
afterAll(async () => {
  client?.close();
  await store?.close();
  await etcd?.stop();
});

function recorder() {
  const changed: { names: string[]; at: number }[] = [];
  const missed: string[] = [];
  const handlers = {
    changed: (names: string[]) => changed.push({ names, at: performance.now() }),
    missed: (r: string) => missed.push(r),
  };
  const until = async (test: () => boolean, ms = 5_000) => {
    const t0 = performance.now();
    while (!test()) {
      if (performance.now() - t0 > ms) throw new Error(`not within ${ms} ms: ${JSON.stringify({ changed, missed })}`);
      await delay(5);
    }
  };
  return { changed, missed, handlers, until };
}

describe('the etcd change feed', () => {
  it('names the lock an etcdctl lock queued on within a second, and again after the server restarts', async () => {
    const r = recorder();
    const feed = (await (store as FeedingStore).changes(r.handlers))!;
    try {
      expect(feed.description).toMatch(/etcd watch/);
      const h = await etcd.queue(['lock', '--ttl', '30', 'jobs/deploy']);
      await r.until(() => r.changed.some((c) => c.names.includes('jobs/deploy')));
      expect(r.changed[0]!.names).toEqual(['jobs/deploy']); // the lock, never a queue key as a row of its own
      // timed from a write whose moment is known (etcdctl's own start-up is not the feed's)
      const t0 = performance.now();
      await client.put('jobs/timing').value('');
      await r.until(() => r.changed.some((c) => c.names.includes('jobs/timing')));
      expect(r.changed.find((c) => c.names.includes('jobs/timing'))!.at - t0).toBeLessThan(1_000);
      expect(h.key.startsWith('jobs/deploy/')).toBe(true);
      etcd.ctl('put', 'outside/key', 'x'); // outside the source's prefix: no event
      await h.c.stop();
      await etcd.restart();
      r.changed.length = 0;
      await etcd.queue(['lock', '--ttl', '30', 'jobs/nightly']);
      await r.until(() => r.changed.some((c) => c.names.includes('jobs/nightly')), 10_000);
      expect(r.changed.flatMap((c) => c.names)).not.toContain('outside/key');
      expect(r.missed).toEqual([]);
    } finally {
      await feed.stop();
    }
  });

  it('reports a compacted revision as missed, then watches again from now', async () => {
    let feed: ChangeFeed | null = null;
    try {
      const from = (await client.put('jobs/old').value('1')).header.revision;
      const now = (await client.put('jobs/old').value('2')).header.revision;
      etcd.ctl('compact', now);
      const r = recorder();
      feed = await startEtcdFeed(client, { prefix: 'jobs/', source: 'test', fromRevision: from }, r.handlers);
      await r.until(() => r.missed.length > 0);
      expect(r.missed[0]).toMatch(/compacted/);
      await delay(300);
      await client.put('jobs/new').value('3');
      await r.until(() => r.changed.some((c) => c.names.includes('jobs/new')));
    } finally {
      await feed?.stop();
    }
  });
});
