// The package root's store-neutral verbs (lib/lock/index.ts) as a program uses them, on the GCS emulator and a real
// Redis: withLockOn holds a lock the listing, an inspection and a second contender all see; forceReleaseLockOn clears
// exactly the version inspected and the trail read through openLockSource records it; a lock's whole URL names it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import {
  acquireLockOn,
  forceReleaseLockOn,
  inspectLockOn,
  listLocksOn,
  LockTimeoutError,
  openLockSource,
  withLockOn,
} from '@/lib/lock';
import { startRedis, type TestRedis } from '../helpers/redis';

interface Target {
  kind: string;
  source: string;
  env: Record<string, string>;
}

let emulator: Emulator;
let redis: TestRedis;
const targets: Target[] = [];
beforeAll(async () => {
  [emulator, redis] = await Promise.all([startEmulator({ buckets: ['neutral'] }), startRedis()]);
  targets.push(
    { kind: 'gcs', source: 'gs://neutral/locks/', env: { LOCKBOARD_GCS_ENDPOINT: emulator.url } },
    { kind: 'redis', source: `${redis.url}/0`, env: {} },
  );
});
afterAll(async () => {
  await Promise.allSettled([emulator?.close(), redis?.stop()]);
});

const named = (names: string[], end: string) => names.filter((n) => n.endsWith(end));

describe.each(['gcs', 'redis'])('the store-neutral verbs on %s', (kind) => {
  const target = () => targets.find((t) => t.kind === kind)!;

  it('withLockOn holds the lock: listed, inspected with its owner, refused to a second contender, then released', async () => {
    const { source, env } = target();
    const seen = await withLockOn(source, 'neutral-a', { env, ttlMs: 20_000, identity: 'job-1' }, async (lock) => {
      expect(lock.signal.aborted).toBe(false);
      const listed = await listLocksOn(source, { env });
      const [name] = named(
        listed.locks.map((l) => l.name),
        'neutral-a',
      );
      expect(name, 'the held lock is listed').toBeDefined();
      const view = await inspectLockOn(source, name!, { env });
      expect(view).toMatchObject({ identity: 'job-1', releasable: true, store: kind });
      await expect(acquireLockOn(source, 'neutral-a', { env, ttlMs: 20_000, timeoutMs: 0 })).rejects.toBeInstanceOf(
        LockTimeoutError,
      );
      return name!;
    });
    const after = await inspectLockOn(source, seen, { env });
    expect(after === null || after.health === 'free').toBe(true);
  });

  it('forceReleaseLockOn clears exactly the version inspected; the holder loses it; the trail says so', async () => {
    const { source, env } = target();
    const held = await acquireLockOn(source, 'neutral-b', { env, ttlMs: 20_000, identity: 'job-2' });
    const name = named(
      (await listLocksOn(source, { env })).locks.map((l) => l.name),
      'neutral-b',
    )[0]!;
    const view = (await inspectLockOn(source, name, { env }))!;
    const request = { name, version: 'not a version!', reason: 'test', operator: 'neutral-test' };
    await expect(forceReleaseLockOn(source, request, { env })).rejects.toThrow(/is not a version of/);
    const r = await forceReleaseLockOn(source, { ...request, version: view.version }, { env });
    expect(r.outcome).toBe('released');
    expect((await forceReleaseLockOn(source, { ...request, version: view.version }, { env })).outcome).toBe('gone');
    const outcome = await held.releaseWith({ outcome: 'ok' });
    // the holder's own release finds its lock cleared (GCS says the object is gone, Redis that it was lost)
    expect(['lost', 'gone']).toContain(outcome.outcome);
    const store = await openLockSource(source, { env });
    try {
      const records = await store.readAudit(new Date(store.now() - 60_000), new Date(store.now() + 60_000), name);
      expect(records.map((e) => e.event)).toEqual(
        expect.arrayContaining(['force-release-requested', 'force-released']),
      );
    } finally {
      await store.close();
    }
  });
});
