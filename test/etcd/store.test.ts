// The etcd store on Debian's etcd, with locks written by the real tools (etcdctl lock / elect, python3-etcd3, npm
// etcd3): every layout read, waiters in grant order, and each trap of facts-coordination.md as a test that fails
// without its protection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EstimatingStore, LockStore } from '@/lib/lock/store';
import { openSource, parseSource } from '@/lib/lock/stores';
import { startEtcd, type TestEtcd } from '../helpers/etcd';
import { delay } from '../helpers/requests';
import { npmEtcd3Election, npmEtcd3Lock, pythonEtcd3Lock } from './fixtures';

let etcd: TestEtcd;
let store: LockStore;
const release = (name: string, version: string) =>
  store.forceRelease({ name, version, reason: 'test', operator: 'ci' });

beforeAll(async () => {
  etcd = await startEtcd();
  store = await openSource(parseSource(`etcd://${etcd.endpoint}/`), { env: {}, role: 'cli' });
});
afterAll(async () => {
  await store?.close();
  await etcd?.stop();
});

describe('the etcd store', () => {
  it('reads etcdctl lock, etcdctl elect, python3-etcd3 and npm etcd3 locks, and lists no other key', async () => {
    const h = await etcd.queue(['lock', '--ttl', '30', 'jobs/deploy']);
    const w1 = await etcd.queue(['lock', '--ttl', '30', 'jobs/deploy']);
    const w2 = await etcd.queue(['lock', '--ttl', '30', 'jobs/deploy']);
    await etcd.queue(['elect', 'leaders/api', 'node-a']);
    await etcd.queue(['elect', 'leaders/api', 'node-b']);
    pythonEtcd3Lock(etcd.endpoint, 'nightly');
    const releaseNpm = await npmEtcd3Lock(etcd.endpoint, 'npm-job');
    const stopElection = await npmEtcd3Election(etcd.endpoint, 'npm-leaders');
    etcd.ctl('put', 'config/app', '{"replicas":3}');
    try {
      const page = await store.list();
      const byName = new Map(page.locks.map((l) => [l.name, l]));
      expect([...byName.keys()].sort()).toEqual([
        '/locks/nightly',
        'election/npm-leaders',
        'jobs/deploy',
        'leaders/api',
        'npm-job',
      ]);
      const deploy = byName.get('jobs/deploy')!;
      expect(deploy.format).toBe('etcd-mutex');
      expect(deploy.identity).toBe(`lease ${h.lease}`);
      expect(deploy.waiters!.map((w) => w.key)).toEqual([w1.key, w2.key]);
      expect(deploy.details).toContainEqual(['Lease', `${h.lease} (decimal ${BigInt(`0x${h.lease}`)})`]);
      expect(deploy.details.find(([k]) => k === 'Lease TTL')![1]).toMatch(/^\d+ s remaining of 30 s granted$/);
      const api = byName.get('leaders/api')!;
      expect([api.format, api.identity, api.waiters!.map((w) => w.identity)]).toEqual([
        'etcd-election',
        'node-a',
        ['node-b'],
      ]);
      expect(api.releaseNote).toMatch(/old leader is not told/);
      expect(byName.get('/locks/nightly')!.format).toBe('python-etcd3');
      expect(byName.get('npm-job')!.format).toBe('etcd3-lock');
      const npmElection = byName.get('election/npm-leaders')!;
      expect([npmElection.formatLabel, npmElection.identity, npmElection.waiters!.map((w) => w.identity)]).toEqual([
        'etcd3 (npm) Election',
        'npm-leader',
        ['npm-candidate'],
      ]);
      expect(page.skipped).toBe(1); // config/app
      expect(await (store as EstimatingStore).estimateTotal()).toBeGreaterThanOrEqual(page.skipped + page.locks.length);
      expect((await store.inspect('config/app'))!.releasable).toBe(false);
    } finally {
      await releaseNpm();
      await stopElection();
    }
  });

  it('never releases a waiter: releasing the holder then lets exactly one waiter in (two holders otherwise)', async () => {
    const h = await etcd.queue(['lock', '--ttl', '30', 'jobs/report']);
    const w1 = await etcd.queue(['lock', '--ttl', '30', 'jobs/report']);
    const w2 = await etcd.queue(['lock', '--ttl', '30', 'jobs/report']);
    await h.c.waitFor(h.key);
    const waiter = (await store.inspect(w1.key))!;
    expect([waiter.releasable, waiter.queuedFor]).toEqual([false, 'jobs/report']);
    expect(waiter.details).toContainEqual(['Lease', `${w1.lease} (decimal ${BigInt(`0x${w1.lease}`)})`]);
    expect(waiter.details.find(([k]) => k === 'Lease TTL')![1]).toMatch(/^\d+ s remaining of 30 s granted$/);
    const refused = await release(w1.key, waiter.version);
    expect(refused.outcome).toBe('not-a-lock');
    expect(etcd.ctl('get', w1.key, '--keys-only')).toContain(w1.key);
    const seen = (await store.inspect('jobs/report'))!;
    expect((await release('jobs/report', seen.version)).outcome).toBe('released');
    await w1.c.waitFor(w1.key);
    await delay(300);
    expect(w2.c.output()).not.toContain(w2.key); // W2 still waits: one holder
    expect((await store.inspect('jobs/report'))!.waiters!.map((w) => w.key)).toEqual([w2.key]);
  });

  it('deletes only the holder key, never the other keys of its lease (a revoke would drop them)', async () => {
    const h = await etcd.queue(['lock', '--ttl', '30', 'jobs/backup']);
    etcd.ctl('put', `--lease=${h.lease}`, 'sessions/backup-heartbeat', 'alive');
    const seen = (await store.inspect('jobs/backup'))!;
    expect(seen.details).toContainEqual(['A lease revoke would also drop', 'sessions/backup-heartbeat']);
    expect((await release('jobs/backup', seen.version)).outcome).toBe('released');
    expect(etcd.ctl('get', 'sessions/backup-heartbeat', '--print-value-only').trim()).toBe('alive');
    expect(etcd.ctl('lease', 'timetolive', h.lease)).toMatch(/remaining\(\d+s\)/);
    expect(etcd.ctl('get', '--prefix', 'jobs/backup/', '--keys-only').trim()).toBe('');
  });

  it('keeps lock a/b out of lock a: prefix a/ matches a/b/<lease> but a/b is its own lock', async () => {
    const inner = await etcd.queue(['lock', '--ttl', '30', 'a/b']);
    const outer = await etcd.queue(['lock', '--ttl', '30', 'a']);
    const a = (await store.inspect('a'))!;
    expect(a.details).toContainEqual(['Holder key', outer.key]);
    expect(a.waiters).toEqual([]);
    const b = (await store.inspect('a/b'))!;
    expect((await release('a', b.version)).outcome).toBe('changed'); // a/b's revision never releases lock a
    expect((await release('a', a.version)).outcome).toBe('released');
    expect(etcd.ctl('get', inner.key, '--keys-only')).toContain(inner.key);
    expect((await store.inspect('a/b'))!.version).toBe(b.version);
  });

  it('releases an election leader: the next candidate leads at once', async () => {
    await etcd.queue(['elect', 'leaders/db', 'db-1']);
    const next = await etcd.queue(['elect', 'leaders/db', 'db-2']);
    const seen = (await store.inspect('leaders/db'))!;
    expect(seen.terms.effect).toMatch(/old leader is not told/);
    expect((await release('leaders/db', seen.version)).outcome).toBe('released');
    await next.c.waitFor('db-2');
    expect((await store.inspect('leaders/db'))!.identity).toBe('db-2');
  });
});
