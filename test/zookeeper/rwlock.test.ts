// Read/write locks written by the real tools on Debian's ZooKeeper: Curator InterProcessReadWriteLock (Debian's jars)
// and kazoo ReadLock/WriteLock (Debian's python), each with a write holder and with read holders, and waiters of both
// kinds. Each is listed as one logical lock, holders and waiters in sequence order, and a release deletes exactly the
// node its version names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockView } from '@/lib/lock/store';
import type { ZkConn } from '@/lib/lock/stores/zookeeper/conn';
import { ZooKeeperLockStore } from '@/lib/lock/stores/zookeeper/store';
import { type RecipeDriver, type ZkRig, startZkRig, until } from '../helpers/zookeeper';

let rig: ZkRig;
let k: RecipeDriver;
let c: RecipeDriver;
let admin: ZkConn;
let store: ZooKeeperLockStore;
const op = { reason: 'test', operator: 'ci', acceptTwoLeaders: true };

beforeAll(async () => {
  rig = await startZkRig('/rw', { sessions: false });
  ({ k, c, admin, store } = rig);
  // each contender's node exists when start() returns, so the start order is the sequence order
  for (const [id, kind] of [
    ['cw1', 'write'],
    ['cr1', 'read'],
    ['cw2', 'write'],
    ['cr2', 'read'],
  ])
    await c.start(id!, kind!, '/rw/curator/by-writer', '');
  for (const [id, kind] of [
    ['cr3', 'read'],
    ['cr4', 'read'],
    ['cw3', 'write'],
    ['cr5', 'read'],
  ])
    await c.start(id!, kind!, '/rw/curator/by-readers', '');
  // kazoo 2.8 deadlocks a reader queued ahead of a later writer (python-zk/kazoo#649): that queue has its own test
  for (const id of ['kw1', 'kw2', 'kr1', 'kr2'])
    await k.start(id, id[1] === 'w' ? 'wlock' : 'rlock', '/rw/kazoo/by-writer', id);
  for (const id of ['kr3', 'kr4', 'kw3', 'kr5'])
    await k.start(id, id[1] === 'w' ? 'wlock' : 'rlock', '/rw/kazoo/by-readers', id);
}, 60_000);
afterAll(() => rig?.stop());

/** The holder nodes a view shows, each as [node name, version], in the order shown. */
const holdersOf = (v: LockView) =>
  v.details
    .filter(([label]) => label.startsWith('Holder'))
    .map(([, text]) => [text.split(' — ')[0]!, /version (\S+)$/.exec(text)![1]!] as const);
const seqOf = (node: string) => Number(node.slice(-10));
const waiterNodes = (v: LockView) => v.waiters!.map((w) => w.key!.slice(w.key!.lastIndexOf('/') + 1));

describe('read/write locks by Curator and kazoo', () => {
  let listed: Map<string, LockView>;
  beforeAll(async () => {
    listed = new Map((await store.list()).locks.map((l) => [l.name, l]));
  });

  it('lists each as one logical lock: nothing else under /rw', () => {
    expect([...listed.keys()].sort()).toEqual([
      'rw/curator/by-readers',
      'rw/curator/by-writer',
      'rw/kazoo/by-readers',
      'rw/kazoo/by-writer',
    ]);
    expect(listed.get('rw/kazoo/by-writer')!.note).toBeUndefined(); // no reader ahead of a writer
  });

  it('Curator: a writer holds alone; readers hold together up to the first writer; the rest wait in sequence order', async () => {
    const byWriter = listed.get('rw/curator/by-writer')!;
    expect(byWriter.format).toBe('curator-rwlock');
    expect(holdersOf(byWriter).map(([n]) => n)).toEqual([expect.stringMatching(/^_c_.*-__WRIT__\d{10}$/)]);
    expect(waiterNodes(byWriter).map((n) => /__(READ|WRIT)__/.exec(n)![1])).toEqual(['READ', 'WRIT', 'READ']);
    const byReaders = listed.get('rw/curator/by-readers')!;
    expect(holdersOf(byReaders).map(([n]) => /__(READ|WRIT)__/.exec(n)![1])).toEqual(['READ', 'READ']);
    expect(waiterNodes(byReaders).map((n) => /__(READ|WRIT)__/.exec(n)![1])).toEqual(['WRIT', 'READ']);
    for (const v of [byWriter, byReaders]) {
      const seqs = [...holdersOf(v).map(([n]) => n), ...waiterNodes(v)].map(seqOf);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
    // what the tool itself says: exactly the listed holders hold
    expect(await Promise.all(['cw1', 'cr1', 'cw2', 'cr2'].map((id) => c.held(id)))).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(await Promise.all(['cr3', 'cr4', 'cw3', 'cr5'].map((id) => c.held(id)))).toEqual([true, true, false, false]);
  });

  it('kazoo: the same rule, the identifiers in sequence order', async () => {
    const byWriter = listed.get('rw/kazoo/by-writer')!;
    expect(byWriter).toMatchObject({ format: 'kazoo-rwlock', identity: 'kw1' });
    expect(byWriter.waiters!.map((w) => w.identity)).toEqual(['kw2', 'kr1', 'kr2']);
    const byReaders = listed.get('rw/kazoo/by-readers')!;
    expect(byReaders.identity).toBe('kr3, kr4');
    expect(byReaders.waiters!.map((w) => w.identity)).toEqual(['kw3', 'kr5']);
    expect(await Promise.all(['kr3', 'kr4', 'kw3', 'kr5'].map((id) => k.held(id)))).toEqual([true, true, false, false]);
  });

  it('releasing a write holder deletes exactly its node, and the next in sequence holds', async () => {
    // Curator: W R W R → the reader behind it holds, the writer after still waits; kazoo: W W R R → the next writer
    for (const [name, next, after, d] of [
      ['/rw/curator/by-writer', 'cr1', 'cw2', c],
      ['/rw/kazoo/by-writer', 'kw2', 'kr1', k],
    ] as const) {
      const seen = (await store.inspect(name))!;
      const before = await admin.children(name);
      const [holder] = holdersOf(seen)[0]!;
      expect((await store.forceRelease({ name: seen.name, version: seen.version, ...op })).outcome).toBe('released');
      expect((await admin.children(name)).sort()).toEqual(before.filter((n) => n !== holder).sort());
      expect(await until(() => d.held(next)), `${next} holds`).toBe(true);
      expect(await d.held(after)).toBe(false);
      expect((await store.inspect(name))!.waiters).toHaveLength(2);
    }
  });

  it('says where kazoo 2.8 deadlocks a reader queued ahead of a writer (python-zk/kazoo#649) instead of claiming it holds', async () => {
    for (const id of ['kw4', 'kr6', 'kw5']) await k.start(id, id[1] === 'w' ? 'wlock' : 'rlock', '/rw/kazoo/stuck', id);
    const seen = (await store.inspect('/rw/kazoo/stuck'))!;
    expect(seen.note).toMatch(/kazoo#649/);
    expect((await store.forceRelease({ name: seen.name, version: seen.version, ...op })).outcome).toBe('released');
    const now = (await store.inspect('/rw/kazoo/stuck'))!;
    expect(now.identity).toBe('kr6'); // first in sequence: what the recipe's rule grants
    expect(now.note).toMatch(/a reader shown holding may be stuck waiting/);
    await new Promise((r) => setTimeout(r, 1_500));
    expect([await k.held('kr6'), await k.held('kw5')]).toEqual([false, false]); // kazoo 2.8: each waits for the other
  });

  it('releasing the second of two read holders deletes exactly its node; the first still holds, the writer waits', async () => {
    for (const [name, first, writer, d] of [
      ['/rw/curator/by-readers', 'cr3', 'cw3', c],
      ['/rw/kazoo/by-readers', 'kr3', 'kw3', k],
    ] as const) {
      const seen = (await store.inspect(name))!;
      const before = await admin.children(name);
      const [[firstNode], [second, version]] = holdersOf(seen) as [
        readonly [string, string],
        readonly [string, string],
      ];
      expect(version).not.toBe(seen.version); // the lock's own version names the first holder
      expect((await store.forceRelease({ name: seen.name, version, ...op })).outcome).toBe('released');
      expect((await admin.children(name)).sort()).toEqual(before.filter((n) => n !== second).sort());
      const now = (await store.inspect(name))!;
      expect(holdersOf(now).map(([n]) => n)).toEqual([firstNode]);
      expect(await d.held(first)).toBe(true);
      expect(await d.held(writer)).toBe(false);
    }
  });
});
