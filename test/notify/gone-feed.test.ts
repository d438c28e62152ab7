// holder-gone from what the console's watchers hand over: index rows (whose verdict is an object, as the index keeps
// it), read the same way whatever the store; a row judged gone is told once after `after`, other verdicts never.
import { describe, expect, it } from 'vitest';
import { compact } from '@/lib/lock/query/row';
import type { LockView } from '@/lib/lock/store';
import { holderViewOf } from '@/lib/server/notify/gone-feed';
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
    expect(t.due(hooks, T0 + 120_000)).toEqual([]); // once per holder
  });
});
