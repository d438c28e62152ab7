// The Lease watch's lifecycle with a scripted apiserver (the pure resume logic; the real watch is in store.test.ts):
// resumed from the last resourceVersion when the apiserver ends it, and a 410 Gone answered by a fresh list.
import { describe, expect, it } from 'vitest';
import { startLeaseFeed } from '@/lib/lock/stores/kubernetes/feed';
import type { Lease, LeaseApi, LeaseWatchHandlers } from '@/lib/lock/stores/kubernetes/lease';
import { delay } from '../helpers/requests';

function scripted() {
  const watches: { rv: string; h: LeaseWatchHandlers }[] = [];
  let lists = 0;
  const api: LeaseApi = {
    server: 'scripted',
    requests: 0,
    list: async () => ({ items: [], resourceVersion: String(100 * ++lists) }),
    read: async () => null,
    replace: async (l) => l,
    create: async (l) => l,
    watch: async (_ns, rv, h) => {
      watches.push({ rv, h });
      return () => {};
    },
  };
  return { api, watches, lists: () => lists };
}
const lease = (name: string, rv: string): Lease => ({ metadata: { name, namespace: 'default', resourceVersion: rv } });

describe('the Lease watch', () => {
  it('resumes from the last resourceVersion it delivered when the apiserver ends the watch', async () => {
    const s = scripted();
    const changed: string[] = [];
    const feed = await startLeaseFeed(
      s.api,
      { namespace: undefined, nameOf: (l) => l.metadata.name },
      { changed: (n) => changed.push(...n), missed: () => {} },
    );
    expect(s.watches[0]!.rv).toBe('100');
    s.watches[0]!.h.event('MODIFIED', lease('a', '105'));
    s.watches[0]!.h.event('BOOKMARK', lease('', '120'));
    s.watches[0]!.h.done(null);
    await delay(1_200);
    expect(s.watches[1]!.rv).toBe('120');
    expect(changed).toEqual(['a']);
    expect(s.lists()).toBe(1);
    await feed.stop();
  });

  it('answers a 410 Gone with missed() and a watch from a fresh list', async () => {
    const s = scripted();
    const missed: string[] = [];
    const feed = await startLeaseFeed(
      s.api,
      { namespace: 'default', nameOf: (l) => l.metadata.name },
      { changed: () => {}, missed: (r) => missed.push(r) },
    );
    s.watches[0]!.h.event('ERROR', undefined, { code: 410, message: 'too old resource version' });
    s.watches[0]!.h.done(null);
    await delay(50);
    expect(missed).toEqual([expect.stringMatching(/410/)]);
    expect(s.lists()).toBe(2);
    expect(s.watches[1]!.rv).toBe('200');
    await feed.stop();
  });
});
