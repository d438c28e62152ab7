// Lockboard's own lock on Debian's etcd: the concurrency.Mutex layout, so Lockboard and real `etcdctl lock`
// processes wait in one queue; the fencing token is the create revision; loss reaches the signal; `lockboard run`.
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3 } from 'etcd3';
import { LockLostError, LockTimeoutError } from '@/lib/lock/errors';
import { acquireEtcdLock } from '@/lib/lock/stores/etcd';
import { openSource, parseSource } from '@/lib/lock/stores';
import { runCli } from '../helpers/cli';
import { startEtcd, type TestEtcd } from '../helpers/etcd';
import { delay } from '../helpers/requests';

let etcd: TestEtcd;
let client: Etcd3;

beforeAll(async () => {
  etcd = await startEtcd();
  client = new Etcd3({ hosts: `http://${etcd.endpoint}` });
});
afterAll(async () => {
  client?.close();
  await etcd?.stop();
});

const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));

describe('Lockboard’s lock on etcd', () => {
  it('waits in one queue with etcdctl lock: after its holder, before a later etcdctl waiter', async () => {
    const first = await etcd.queue(['lock', '--ttl', '30', 'jobs/migrate']);
    await first.c.waitFor(first.key);
    const seen: string[] = [];
    const taking = acquireEtcdLock({
      client,
      name: 'jobs/migrate',
      ttlMs: 10_000,
      onWait: (h) => seen.push(h.identity!),
    });
    // queued behind the holder (its onWait names it) before the later etcdctl waiter joins: waited for, never a fixed
    // delay (on a busy core 300 ms was not always enough, and the later waiter queued first)
    for (const end = Date.now() + 20_000; !seen.length; await delay(25))
      if (Date.now() > end) throw new Error('Lockboard never queued behind the etcdctl holder');
    const later = await etcd.queue(['lock', '--ttl', '30', 'jobs/migrate']);
    const t0 = performance.now();
    await first.c.stop(); // etcdctl lock unlocks on SIGTERM
    const lock = await taking;
    const handoverMs = performance.now() - t0;
    expect(seen).toContain(`lease ${first.lease}`);
    expect(lock.key).toMatch(/^jobs\/migrate\/[0-9a-f]{1,16}$/);
    const kv = (await client.getAll().prefix('jobs/migrate/').sort('Create', 'Ascend').exec()).kvs;
    expect(kv.map((k) => k.key.toString())).toEqual([lock.key, later.key]);
    expect(lock.fencingToken).toBe(kv[0]!.create_revision);
    expect(handoverMs).toBeLessThan(2_000);
    expect(later.c.output()).not.toContain(later.key);
    expect(await lock.release()).toBe('released');
    await later.c.waitFor(later.key);
  });

  it('aborts its signal when an operator releases it (pinned force-release) or its lease is revoked', async () => {
    const store = await openSource(parseSource(`etcd://${etcd.endpoint}/`), { env: {}, role: 'cli' });
    try {
      const lock = await acquireEtcdLock({ client, name: 'jobs/index', ttlMs: 10_000 });
      const lost = aborted(lock.signal);
      const view = (await store.inspect('jobs/index'))!;
      expect(view.version).toBe(lock.fencingToken);
      expect(
        (await store.forceRelease({ name: 'jobs/index', version: view.version, reason: 't', operator: 'ci' })).outcome,
      ).toBe('released');
      const reason = (await lost) as LockLostError;
      expect([reason.name, reason.reason]).toEqual(['LockLostError', 'released-by-operator']);
      expect(await lock.release()).toBe('lost');

      const again = await acquireEtcdLock({ client, name: 'jobs/index', ttlMs: 10_000 });
      const lost2 = aborted(again.signal);
      etcd.ctl('lease', 'revoke', again.key.split('/').pop()!);
      expect(((await lost2) as LockLostError).name).toBe('LockLostError');
    } finally {
      await store.close();
    }
  });

  it('times out naming the holder, and leaves no key of its own behind', async () => {
    const holder = await etcd.queue(['lock', '--ttl', '30', 'jobs/busy']);
    await expect(acquireEtcdLock({ client, name: 'jobs/busy', timeoutMs: 0 })).rejects.toBeInstanceOf(LockTimeoutError);
    const keys = await client.getAll().prefix('jobs/busy/').keys();
    expect(keys).toEqual([holder.key]);
  });

  it('leaves no abort listener on the caller’s signal after waiting its turn (no MaxListenersExceededWarning)', async () => {
    const holder = await etcd.queue(['lock', '--ttl', '30', 'jobs/listeners']);
    await holder.c.waitFor(holder.key);
    const caller = new AbortController();
    const taking = acquireEtcdLock({ client, name: 'jobs/listeners', ttlMs: 10_000, signal: caller.signal });
    await delay(1_500); // several rounds of waiting for the holder's key to go
    await holder.c.stop();
    const lock = await taking;
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    expect(await lock.release()).toBe('released');
  });

  it('lockboard run --source etcd://… holds it around the command, in the queue etcdctl sees', async () => {
    const r = await runCli(
      [
        'run',
        '--source',
        `etcd://${etcd.endpoint}/jobs/`,
        'report',
        '--',
        'sh',
        '-c',
        `ETCDCTL_API=3 etcdctl --endpoints ${etcd.endpoint} get --prefix jobs/report/ --keys-only`,
      ],
      {},
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^jobs\/report\/[0-9a-f]+$/m);
    expect(await client.getAll().prefix('jobs/report/').keys()).toEqual([]);
  });
});
