// holder-gone from what the console's watchers hand over: index rows (whose verdict is an object, as the index keeps
// it), read the same way whatever the store; a row judged gone is told once after `after`, other verdicts never.
import { describe, expect, it } from 'vitest';
import { compact } from '@/lib/lock/query/row';
import type { LockView } from '@/lib/lock/store';
import { GoneFeed, holderViewOf } from '@/lib/server/notify/gone-feed';
import { HolderGoneTracker } from '@/lib/server/notify/holder-gone';
import type { Source } from '@/lib/server/sources';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const lock = (name: string, o: Partial<LockView>): LockView =>
  ({
    store: 'any-store',
    source: 'etcd://h:2379/locks/',
    name,
    format: 'etcd-mutex',
    formatLabel: 'etcd mutex',
    generation: '0',
    metageneration: '0',
    createdAt: new Date(T0).toISOString(),
    updatedAt: new Date(T0).toISOString(),
    health: 'healthy',
    heldMs: 0,
    metadata: {},
    details: [],
    releasable: true,
    releaseRule: 'delete',
    releaseNote: '',
    size: 0,
    identity: 'runner-3',
    version: `v-${name}`,
    versionLabel: 'revision',
    terms: { storeLabel: 'etcd' } as LockView['terms'],
    ...o,
  }) as LockView;

const source = { id: 'etcd://h:2379/locks/', prefix: 'locks/', store: 'etcd', bucketId: 'etcd' } as Source;

describe('holder-gone from index rows', () => {
  it('tells a row judged gone once after `after`, and never one judged alive or not judged', () => {
    const gone = compact(
      lock('locks/a', { verdict: 'gone', sentence: 'Holder gone: lease 7 expired', evidence: [] } as Partial<LockView>),
    );
    const alive = compact(lock('locks/b', { verdict: 'alive', sentence: 'Alive: renewed' } as Partial<LockView>));
    const unjudged = compact(lock('locks/c', {}));
    expect(holderViewOf(gone)).toMatchObject({ name: 'locks/a', verdict: 'gone', identity: 'runner-3' });
    const t = new HolderGoneTracker();
    t.observe(source, [gone, alive, unjudged].map(holderViewOf), T0);
    const hooks = [{ name: 'team', after: 60_000 }];
    expect(t.due(hooks, T0 + 59_000)).toEqual([]);
    const told = t.due(hooks, T0 + 60_000);
    expect(told.map((d) => d.event.lock.name)).toEqual(['locks/a']);
    expect(told[0]!.event).toMatchObject({
      event: 'holder-gone',
      verdict: 'gone',
      sentence: 'Holder gone: lease 7 expired',
      actor: 'runner-3',
      lock: { address: 'etcd://h:2379/locks/a', store: 'etcd' },
    });
    expect(t.due(hooks, T0 + 61_000)).toHaveLength(1); // not told until its claim is made
    told[0]!.told();
    expect(t.due(hooks, T0 + 120_000)).toEqual([]); // once per tenure
  });

  it('tells each tenure of a fixed identity, with its own id', () => {
    const t = new HolderGoneTracker();
    const hooks = [{ name: 'team', after: 60_000 }];
    const tenure = (version: string) =>
      holderViewOf(compact(lock('locks/a', { version, verdict: 'gone', sentence: 'gone' } as Partial<LockView>)));
    t.observe(source, [tenure('v1')], T0);
    const first = t.due(hooks, T0 + 60_000);
    first[0]!.told();
    // the same identity takes the lock again (a new version) and is gone again: a new clock, a new event id
    t.observe(source, [tenure('v2')], T0 + 70_000);
    expect(t.due(hooks, T0 + 129_000)).toEqual([]);
    const second = t.due(hooks, T0 + 130_000);
    expect(second.map((d) => d.event.actor)).toEqual(['runner-3']);
    expect(second[0]!.event.id).not.toBe(first[0]!.event.id);
  });

  it('forgets every clock when cleared (no webhook listens any more)', () => {
    const t = new HolderGoneTracker();
    const gone = holderViewOf(compact(lock('locks/a', { verdict: 'gone', sentence: 'gone' } as Partial<LockView>)));
    t.observe(source, [gone], T0);
    t.clear();
    expect(t.size).toBe(0);
    t.observe(source, [gone], T0 + 3_600_000);
    expect(t.due([{ name: 'team', after: 60_000 }], T0 + 3_600_000 + 59_000)).toEqual([]);
  });
});

describe('the gone feed’s subscriptions', () => {
  /** A watcher holding `rows` now, whose later changes the test sends. */
  function fakeWatcher(rows: ReturnType<typeof compact>[]) {
    const listeners = new Set<(c: unknown) => void>();
    return {
      index: { rows: new Map(rows.map((r) => [r.name, r])) },
      subscribe(fn: (c: unknown) => void) {
        listeners.add(fn);
        return () => listeners.delete(fn);
      },
      listeners,
    };
  }
  const goneRow = compact(lock('locks/a', { verdict: 'gone', sentence: 'gone' } as Partial<LockView>));
  const aliveRow = compact(lock('locks/b', { verdict: 'alive', sentence: 'alive' } as Partial<LockView>));

  it('hears the locks already gone when it subscribes, and forgets them when it unsubscribes', () => {
    const w = fakeWatcher([goneRow, aliveRow]);
    const t = new HolderGoneTracker();
    const feed = new GoneFeed(
      () => [source],
      t,
      () => w as never,
    );
    feed.sync(true);
    expect(t.size).toBe(1);
    expect(w.listeners.size).toBe(1);
    const due = t.due([{ name: 'team', after: 0 }], Date.now());
    expect(due.map((d) => d.event.lock.name)).toEqual(['locks/a']);
    feed.sync(false);
    expect(w.listeners.size).toBe(0);
    expect(t.size).toBe(0);
  });
});
