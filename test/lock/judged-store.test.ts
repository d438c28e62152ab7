// The one judged path (lib/lock/verdict/judged-store.ts): every view a store hands out, whichever way it goes out (a
// page, a view read later, an inspection, a release's result), carries its verdict and no raw signs; a capability the
// store lacks stays absent; a store judged twice keeps its verdicts; a store class exported judged judges.
import { describe, expect, it } from 'vitest';
import {
  canClaim,
  canEstimate,
  canObserve,
  hasChangeFeed,
  type LockStore,
  type LockView,
  type StoreCapabilities,
  type StoreReleaseResult,
} from '@/lib/lock/store';
import { STORES } from '@/lib/lock/stores';
import { judgedStore, judgedStoreClass, JudgedStore } from '@/lib/lock/verdict/judged-store';
import type { HolderSign } from '@/lib/lock/verdict/verdict';

const AT = '2026-11-29T05:00:00.000Z';
const alive: HolderSign = { fact: 'renewed', from: 'the store', at: AT, points: 'alive', says: 'its holder renews it' };

const viewOf = (name: string, extra: Partial<LockView> = {}) =>
  ({ name, health: 'healthy', format: 'terraform', signs: [alive], ...extra }) as unknown as LockView;

/** A store with signs and no judge, reading bodies later; `extras` adds optional capabilities. */
class SignsOnly implements LockStore {
  readonly source = 'fake://signs/';
  readonly kind = 'fake';
  readonly versionShape = { test: () => true, describe: 'any' };
  constructor(extras: Partial<LockStore> & StoreCapabilities = {}) {
    Object.assign(this, extras);
  }
  async list(_token?: string, o: Parameters<LockStore['list']>[1] = {}) {
    setTimeout(() => o.later?.({ views: [viewOf('b')], dropped: [] }), 1);
    return { locks: [viewOf('a'), viewOf('b', { pending: true, signs: undefined })], skipped: 0, serverTime: AT };
  }
  async inspect(name: string) {
    return viewOf(name);
  }
  async forceRelease(): Promise<StoreReleaseResult> {
    return { outcome: 'changed', current: viewOf('a'), released: viewOf('a'), audit: [] };
  }
  async readAudit() {
    return [];
  }
  async record() {
    return 'id';
  }
  now() {
    return Date.parse(AT);
  }
  async close() {}
}

const judgedAlive = (v: LockView | null | undefined) => {
  expect(v?.verdict).toBe('alive');
  expect(v?.sentence).toBe('Alive: its holder renews it.');
  expect(v).not.toHaveProperty('signs');
};

describe('a judged store', () => {
  it('judges every page, every view read later, every inspection and both views of a release', async () => {
    const store = judgedStore(new SignsOnly());
    const later: LockView[] = [];
    const page = await store.list(undefined, { later: (r) => later.push(...r.views) });
    judgedAlive(page.locks[0]);
    expect(page.locks[1]).toMatchObject({ pending: true });
    expect(page.locks[1]).not.toHaveProperty('verdict');
    await expect.poll(() => later.length).toBe(1);
    judgedAlive(later[0]);
    judgedAlive(await store.inspect('a'));
    const r = await store.forceRelease({ name: 'a', version: 'v', reason: 'x', operator: 'ci' });
    judgedAlive(r.current);
    judgedAlive(r.released);
  });

  it('has an optional capability exactly where its store has one, and delegates it', async () => {
    const bare = judgedStore(new SignsOnly());
    for (const key of ['claim', 'changes', 'estimateTotal', 'observe', 'readOnly']) expect(key in bare).toBe(false);
    const full = judgedStore(new SignsOnly({ claim: async (k) => k === 'won', estimateTotal: async () => 7 }));
    expect(await full.claim?.('won')).toBe(true);
    expect(await full.estimateTotal?.()).toBe(7);
    expect('changes' in full).toBe(false);
    // the console's type guards answer for a judged store as for its store
    expect([canClaim(full), canEstimate(full), hasChangeFeed(full), canObserve(full)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([canClaim(bare), canEstimate(bare)]).toEqual([false, false]);
    expect(judgedStore(new SignsOnly({ readOnly: 'no conditional deletes' })).readOnly).toBe('no conditional deletes');
  });

  it('keeps its verdicts when judged again (the signs are never folded twice)', async () => {
    const once = judgedStore(new SignsOnly());
    expect(judgedStore(once)).toBe(once);
    judgedAlive(await new JudgedStore(once).inspect('a'));
  });

  it('is what a store class exported judged builds: `new` as before, an instance of it, judged', async () => {
    const Exported = judgedStoreClass(SignsOnly);
    const store = new Exported({ estimateTotal: async () => 3 });
    expect(store).toBeInstanceOf(Exported);
    expect(store).toBeInstanceOf(JudgedStore);
    expect(store.source).toBe('fake://signs/');
    judgedAlive((await store.list()).locks[0]);
    judgedAlive(await judgedStore(store).inspect('a'));
  });
});

describe.each(STORES.map((s) => s.kind))("the %s store's subpath (lockboard/<store>)", (kind) => {
  it('exports its store class judged: a store built directly hands out verdicts', async () => {
    const exported = (await import(`@/lib/lock/stores/${kind}/index.ts`)) as Record<string, unknown>;
    const classes = Object.entries(exported).filter(([name]) => name.endsWith('LockStore'));
    expect(classes.map(([name]) => name)).toHaveLength(1);
    const [, Store] = classes[0]!;
    expect((Store as { prototype: unknown }).prototype).toBeInstanceOf(JudgedStore);
  });
});
