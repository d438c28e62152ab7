// An etcd source in the console, through the route handlers, against Debian's etcd with auth enabled and Lockboard
// connecting as a user whose role has exactly the least privilege the README names (readwrite on the source's
// prefix and on lockboard/audit/): listing with the waiters of a real `etcdctl lock` queue, no password in any
// response, a waiter’s release refused (422 not_a_lock), the holder's released and the first waiter let in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockView } from '@/lib/lock/store';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { startEtcd, type Queued, type TestEtcd } from '../helpers/etcd';
import { openStream } from '../helpers/stream';
import { runCli } from '../helpers/cli';
import { Etcd3 } from 'etcd3';
import { acquireEtcdLock } from '@/lib/lock/stores/etcd';

const OPERATOR = 'ops@example.com';
let etcd: TestEtcd;
let routes: Routes;
let bucket: string;
const queue: Queued[] = [];

beforeAll(async () => {
  etcd = await startEtcd();
  for (const args of [
    ['user', 'add', 'root', '--new-user-password=root-pw'],
    ['user', 'grant-role', 'root', 'root'],
    ['role', 'add', 'lockboard'],
    ['role', 'grant-permission', 'lockboard', '--prefix=true', 'readwrite', 'jobs/'],
    ['role', 'grant-permission', 'lockboard', '--prefix=true', 'readwrite', 'lockboard/audit/'],
    ['user', 'add', 'lockboard', '--new-user-password=hunter2-etcd'],
    ['user', 'grant-role', 'lockboard', 'lockboard'],
    ['auth', 'enable'],
  ])
    etcd.ctl(...args);
  etcd.setUser('root:root-pw'); // the contenders start with auth on, as a real deployment's would
  for (let i = 0; i < 3; i++) queue.push(await etcd.queue(['lock', '--ttl', '30', 'jobs/deploy']));
  etcd.ctl('put', 'jobs/deploy-settings', '{"canary":true}');
  bucket = `etcd://${etcd.endpoint}/jobs/`;
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `etcd://lockboard:hunter2-etcd@${etcd.endpoint}/jobs/`,
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 30_000);
afterAll(() => etcd?.stop());

async function streamOf() {
  const { GET } = await import('@/app/api/locks/stream/route');
  return openStream(GET as Parameters<typeof openStream>[0], OPERATOR, {
    path: `/api/locks/stream?bucket=${encodeURIComponent(bucket)}`,
  });
}

const page = async (name: string) =>
  (
    await call(
      routes.lock.GET,
      `/api/locks/${name}?bucket=${encodeURIComponent(bucket)}`,
      { as: OPERATOR },
      { name: name.split('/') },
    )
  ).json as unknown as LockView;
const releaseOf = (name: string, version: string) =>
  call(routes.release.POST, '/api/locks/release', {
    as: OPERATOR,
    method: 'POST',
    body: { name, bucket, version, reason: 'stuck deploy' },
  });

describe('etcd sources in the console (least-privilege role)', () => {
  it('lists the holder with its waiters in grant order; never the password', async () => {
    const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    expect(res.status, res.text).toBe(200);
    const locks = res.json.locks as LockView[];
    expect(locks.map((l) => [l.store, l.name, l.identity])).toEqual([
      ['etcd', 'jobs/deploy', `lease ${queue[0]!.lease}`],
    ]);
    expect(locks[0]!.waiters!.map((w) => w.key)).toEqual([queue[1]!.key, queue[2]!.key]);
    expect(res.json.skipped).toBe(1);
    expect(res.text).not.toContain('hunter2');
  });

  it('refuses a waiter (422 not_a_lock, key kept); releases the holder (200): the first waiter holds', async () => {
    const waiter = await page(queue[1]!.key);
    expect([waiter.releasable, waiter.queuedFor]).toEqual([false, 'jobs/deploy']);
    const refused = await releaseOf(queue[1]!.key, waiter.version);
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(/not_a_lock/);
    expect(etcd.ctl('get', queue[1]!.key, '--keys-only')).toContain(queue[1]!.key);
    const seen = await page('jobs/deploy');
    const done = await releaseOf('jobs/deploy', seen.version);
    expect(done.status, done.text).toBe(200);
    await queue[1]!.c.waitFor(queue[1]!.key);
    const now = await page('jobs/deploy');
    expect([now.identity, now.waiters!.map((w) => w.key)]).toEqual([`lease ${queue[1]!.lease}`, [queue[2]!.key]]);
    const to = encodeURIComponent(new Date(Date.now() + 5_000).toISOString());
    const audit = await call(
      routes.audit.GET,
      `/api/audit?lock=jobs/deploy&bucket=${encodeURIComponent(bucket)}&to=${to}`,
      { as: OPERATOR },
    );
    expect((audit.json.events as { event: string }[]).map((e) => e.event).sort()).toEqual([
      'force-release-requested',
      'force-released',
    ]);
  });

  it('brings a new lock to the stream within a second of its write (the watch)', async () => {
    const s = await streamOf();
    try {
      const snapshot = await s.next('snapshot');
      expect((snapshot.locks as LockView[]).map((l) => l.name)).toEqual(['jobs/deploy']);
      // the console's first listing pass over (its counts say so, or it was over by the snapshot): the watch is on
      for (;;) {
        const counts = await s.next('counts', 1_500).catch(() => null);
        if (!counts || !(counts.sources as { listing: boolean }[])[0]!.listing) break;
      }
      const client = new Etcd3({ hosts: `http://${etcd.endpoint}`, auth: { username: 'root', password: 'root-pw' } });
      const t0 = Date.now(); // Lockboard's own lock writes the Mutex key at once: the clock starts at the write
      const lock = await acquireEtcdLock({ client, name: 'jobs/nightly', ttlMs: 30_000 });
      // on screen: a change that upserts it, or the window sent again with it in its sorted place
      const shows = (e: { event: string; data: Record<string, unknown> }) =>
        ((e.event === 'change' ? e.data.upsert : e.event === 'snapshot' ? e.data.locks : []) as LockView[]).some(
          (l) => l.name === 'jobs/nightly',
        );
      while (!s.all.some(shows) && Date.now() - t0 < 2_000) await new Promise((r) => setTimeout(r, 5));
      const ms = Date.now() - t0;
      expect(s.all.some(shows), JSON.stringify(s.all.map((e) => e.event))).toBe(true);
      expect(ms).toBeLessThan(1_000);
      console.log(`[etcd live] a new lock reached the stream ${ms} ms after its write`);
      await lock.release();
      client.close();
    } finally {
      await s.close();
    }
  });

  it('names a wrong password as such (exit 3), never showing it', async () => {
    const r = await runCli(['ls', `etcd://lockboard:not-the-password@${etcd.endpoint}/jobs/`], {});
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/authentication failed/i);
    expect(r.stdout + r.stderr).not.toContain('not-the-password');
  });
});
