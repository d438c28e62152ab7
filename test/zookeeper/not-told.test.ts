// Holders that are not told, on Debian's real ZooKeeper with real Curator and kazoo: an id-less LeaderSelector writes
// exactly an InterProcessMutex's layout and a kazoo Election exactly a kazoo Lock's, at any path; a mutex holder whose
// node is deleted keeps believing it holds just as a leader keeps leading. So none of them is released without the
// explicit acknowledgement, and the words say what is known (either recipe), never a guess from the path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZkConn } from '@/lib/lock/stores/zookeeper/conn';
import { TwoLeadersError } from '@/lib/lock/stores/zookeeper/release';
import { ZooKeeperLockStore } from '@/lib/lock/stores/zookeeper/store';
import { type RecipeDriver, type ZkRig, startZkRig, until } from '../helpers/zookeeper';

let rig: ZkRig;
let k: RecipeDriver;
let c: RecipeDriver;
let admin: ZkConn;
let store: ZooKeeperLockStore;
const op = { reason: 'test', operator: 'ci' };

beforeAll(async () => {
  rig = await startZkRig('/svc', { sessions: false });
  ({ k, c, admin, store } = rig);
}, 30_000);
afterAll(() => rig?.stop());

/** Each node's name with its random prefix and sequence masked, and its data: what a reader can tell apart. */
async function layout(path: string): Promise<string[]> {
  const names = await admin.children(path);
  const nodes = await Promise.all(names.map((n) => admin.read(`${path}/${n}`)));
  return names
    .map(
      (n, i) =>
        `${n.replace(/[0-9a-f]{8}(-?[0-9a-f]{4}){3}-?[0-9a-f]{12}/, 'ID').replace(/\d{10}$/, 'SEQ')} ${nodes[i]!.data}`,
    )
    .sort();
}

/** Releases the holder: refused without the acknowledgement (nothing deleted), then released with it. */
async function releaseAcknowledged(name: string, words: RegExp): Promise<void> {
  const view = (await store.inspect(name))!;
  expect(view.terms.twoLeaders).toMatch(words);
  expect(view.terms.confirmByName).toBe(true);
  const refused = store.forceRelease({ name: view.name, version: view.version, ...op });
  await expect(refused).rejects.toBeInstanceOf(TwoLeadersError);
  await expect(refused).rejects.toThrow(/--accept-two-leaders/);
  expect((await store.inspect(name))!.version).toBe(view.version); // nothing was deleted
  const r = await store.forceRelease({ name: view.name, version: view.version, ...op, acceptTwoLeaders: true });
  expect(r.outcome).toBe('released');
}

describe('ZooKeeper holders that keep believing', () => {
  it('an id-less Curator LeaderSelector writes exactly an InterProcessMutex’s layout; its release needs the acknowledgement', async () => {
    for (const id of ['sel-1', 'sel-2']) await c.start(id, 'selector', '/svc/jobs/compactor', '');
    for (const id of ['mx-1', 'mx-2']) await c.start(id, 'mutex', '/svc/jobs/mutex', '');
    expect(await until(() => c.held('sel-1'))).toBe(true);
    expect(await layout('/svc/jobs/compactor')).toEqual(await layout('/svc/jobs/mutex'));
    const selector = (await store.inspect('/svc/jobs/compactor'))!;
    expect(selector.format).toBe('curator-mutex'); // no reader can say more
    expect(selector.formatLabel).toMatch(/InterProcessMutex, or a LeaderSelector without an id/);
    await releaseAcknowledged('/svc/jobs/compactor', /may be a Curator LeaderSelector leader.*exactly this layout/);
    expect(await until(() => c.held('sel-2'))).toBe(true);
    expect(await c.held('sel-1')).toBe(true); // two leaders: what the acknowledgement says
  });

  it('a Curator InterProcessMutex holder keeps believing it holds once its node is deleted: the same acknowledgement', async () => {
    expect(await c.held('mx-1')).toBe(true);
    await releaseAcknowledged('/svc/jobs/mutex', /mutex holder keeps believing it holds/);
    expect(await until(() => c.held('mx-2'))).toBe(true);
    expect(await c.held('mx-1')).toBe(true); // isAcquiredInThisProcess() stays true: two holders
  });

  it('a kazoo Election writes exactly a kazoo Lock’s layout at any path; its release needs the acknowledgement', async () => {
    for (const id of ['e-1', 'e-2']) await k.start(id, 'election', '/svc/jobs/indexer', 'node-1');
    for (const id of ['l-1', 'l-2']) await k.start(id, 'lock', '/svc/jobs/lock', 'node-1');
    expect(await until(() => k.held('e-1'))).toBe(true);
    expect(await layout('/svc/jobs/indexer')).toEqual(await layout('/svc/jobs/lock'));
    expect((await store.inspect('/svc/jobs/indexer'))!.format).toBe('kazoo-lock');
    await releaseAcknowledged('/svc/jobs/indexer', /may be a kazoo Election leader.*exactly this layout/);
    expect(await until(() => k.held('e-2'))).toBe(true);
    expect(await k.held('e-1')).toBe(true); // its leader function keeps running: two leaders
  });

  it('a kazoo Lock holder keeps believing it holds (is_acquired) once its node is deleted: the same acknowledgement', async () => {
    await releaseAcknowledged('/svc/jobs/lock', /Lock holder keeps believing it holds \(is_acquired stays true\)/);
    expect(await until(() => k.held('l-2'))).toBe(true);
    expect(await k.held('l-1')).toBe(true);
  });

  it('a kazoo Semaphore holder keeps its lease once its node is deleted: the same acknowledgement', async () => {
    await k.start('s-1', 'semaphore', '/svc/pool/gpu', 'gpu-1', '1');
    await k.start('s-2', 'semaphore', '/svc/pool/gpu', 'gpu-2', '1');
    await releaseAcknowledged('/svc/pool/gpu', /kazoo Semaphore holder keeps believing it holds its lease/);
    expect(await until(() => k.held('s-2'))).toBe(true);
    expect(await k.held('s-1')).toBe(true); // is_acquired stays true: one holder more than max_leases
  });
});
