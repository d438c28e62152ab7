// Acquire, refresh and release against the emulator through the official client, counted in the request log.
import { describe, expect, it } from 'vitest';
import { acquireLock, forceReleaseLock, getLock, LockAbortError, LockTimeoutError, type LockInfo } from '@/lib/lock';
import { startEmulatorPerTest, type Target } from '../helpers/gcs';
import { freezeHolder, lockOptions, thawHolder } from '../helpers/lock';
import { delay, describeRequests, requestsFor } from '../helpers/requests';

let t: Target;
startEmulatorPerTest((target) => (t = target));

const opts = (name: string, extra: Record<string, unknown> = {}) =>
  lockOptions(t, { ttlMs: 3000, refreshIntervalMs: 1000 })(name, extra);

describe('acquire and release', () => {
  it('acquires an uncontended lock with one request and releases it with one', async () => {
    const lock = await acquireLock(opts('one'));
    expect(describeRequests(requestsFor(t.emulator!, 'locks/one'))).toEqual(['POST upload [ifGenerationMatch] 200']);
    expect(requestsFor(t.emulator!, 'locks/one')[0]!.query.ifGenerationMatch).toBe('0');
    t.emulator!.requests.clear();
    expect(await lock.release()).toEqual({ outcome: 'released' });
    expect(describeRequests(requestsFor(t.emulator!, 'locks/one'))).toEqual([
      'DELETE object [ifGenerationMatch,ifMetagenerationMatch] 204',
    ]);
    expect(await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/one' })).toBeNull();
  });

  it('writes the protocol metadata, including the Ruby keys, and a JSON body', async () => {
    const lock = await acquireLock(opts('meta', { purpose: 'terraform apply prod', identity: 'pod-7' }));
    const [md] = await t.storage.bucket(t.bucket).file('locks/meta').getMetadata();
    expect(md.metadata).toMatchObject({
      identity: 'pod-7',
      ttl_ms: '3000',
      refresh_ms: '1000',
      purpose: 'terraform apply prod',
      format: 'lockboard/1',
    });
    expect(Number(md.metadata!.expires_at)).toBeGreaterThan(Date.now() / 1000);
    expect(md.cacheControl).toBe('no-store');
    expect(md.contentType).toBe('application/json');
    const [body] = await t.storage.bucket(t.bucket).file('locks/meta').download();
    expect(JSON.parse(body.toString())).toMatchObject({ identity: 'pod-7', ttl_ms: '3000' });
    expect(lock.generation).toBe(String(md.generation));
    await lock.release();
  });

  it('refreshes with one PATCH carrying both preconditions, raising the metageneration', async () => {
    const lock = await acquireLock(opts('refresh'));
    t.emulator!.requests.clear();
    await lock.refresh();
    expect(describeRequests(requestsFor(t.emulator!, 'locks/refresh'))).toEqual([
      'PATCH object [ifGenerationMatch,ifMetagenerationMatch] 200',
    ]);
    expect(lock.currentMetageneration).toBe('2');
    await delay(1300);
    expect(Number(lock.currentMetageneration)).toBeGreaterThanOrEqual(3);
    await lock.release();
  });

  it('waits on a held lock with metadata reads only, and gets it when the holder releases', async () => {
    const holder = await acquireLock(opts('busy', { identity: 'holder-a' }));
    t.emulator!.requests.clear();
    const waits: LockInfo[] = [];
    const pending = acquireLock(opts('busy', { identity: 'waiter-b', onWait: (h: LockInfo) => waits.push(h) }));
    await delay(1200);
    const during = requestsFor(t.emulator!, 'locks/busy').filter((e) => e.method !== 'PATCH');
    expect(during[0]!.method).toBe('POST');
    expect(during[0]!.status).toBe(412);
    expect(during.slice(1).every((e) => e.method === 'GET')).toBe(true);
    expect(during.length).toBeGreaterThanOrEqual(3);
    expect(waits[0]!.identity).toBe('holder-a');
    await holder.release();
    const waiter = await pending;
    expect(waiter.identity).toBe('waiter-b');
    expect(BigInt(waiter.generation)).toBeGreaterThan(BigInt(holder.generation));
    await waiter.release();
  });

  it('tries once with timeoutMs 0 and names the holder and when it becomes stale', async () => {
    const holder = await acquireLock(opts('once', { identity: 'holder-a', purpose: 'deploy' }));
    t.emulator!.requests.clear();
    const err = await acquireLock(opts('once', { timeoutMs: 0 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as LockTimeoutError).holder?.identity).toBe('holder-a');
    expect((err as Error).message).toMatch(/held by holder-a \(deploy\) since .* becomes stale at/);
    expect(describeRequests(requestsFor(t.emulator!, 'locks/once')).filter((r) => !r.startsWith('PATCH'))).toEqual([
      'POST upload [ifGenerationMatch] 412',
      'GET object 200',
    ]);
    await holder.release();
  });

  it('stops waiting within 50 ms of the timeout and of an abort', async () => {
    const holder = await acquireLock(opts('stop'));
    let start = performance.now();
    const timeout = await acquireLock(opts('stop', { timeoutMs: 700 })).catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(LockTimeoutError);
    expect(performance.now() - start).toBeLessThan(700 + 50);
    const controller = new AbortController();
    start = performance.now();
    setTimeout(() => controller.abort(), 400);
    const aborted = await acquireLock(opts('stop', { signal: controller.signal })).catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(LockAbortError);
    expect((aborted as Error).name).toBe('AbortError');
    expect(performance.now() - start).toBeLessThan(400 + 50);
    await holder.release();
  });

  it('takes over a stale lock with a GET and one create conditioned on the stale generation', async () => {
    const crashed = await acquireLock(opts('stale', { identity: 'crashed', ttlMs: 1000, refreshIntervalMs: 300 }));
    // Simulate a crash: stop refreshing without releasing.
    freezeHolder(crashed);
    // Well past the TTL: the server clock is a lower bound (a reply that arrives late under load sets it back by its
    // lateness), so a margin of 300 ms once saw one more wait-and-read in a loaded full run.
    await delay(1800);
    t.emulator!.requests.clear();
    const next = await acquireLock(opts('stale', { identity: 'next' }));
    const reqs = requestsFor(t.emulator!, 'locks/stale');
    expect(describeRequests(reqs)).toEqual([
      'POST upload [ifGenerationMatch] 412',
      'GET object 200',
      'POST upload [ifGenerationMatch,ifMetagenerationMatch] 200',
    ]);
    expect(reqs[2]!.query.ifGenerationMatch).toBe(crashed.generation);
    await next.release();
  });
});

describe('successor safety', () => {
  it('an old holder whose lock was taken over gets 412 on refresh and release, and deletes nothing', async () => {
    const old = await acquireLock(opts('succ', { identity: 'old', ttlMs: 1000, refreshIntervalMs: 300 }));
    freezeHolder(old);
    await delay(1300);
    const successor = await acquireLock(opts('succ', { identity: 'new' }));
    thawHolder(old);
    await expect(old.refresh()).rejects.toThrow(/lost \(taken\)/);
    expect(await old.release()).toEqual({ outcome: 'lost' });
    const now = await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/succ' });
    expect(now?.identity).toBe('new');
    expect(now?.generation).toBe(successor.generation);
    await successor.release();
  });

  it('a force-release with a stale generation never removes the successor', async () => {
    const first = await acquireLock(opts('force', { identity: 'first' }));
    const seen = first.generation;
    await first.release();
    const second = await acquireLock(opts('force', { identity: 'second' }));
    const result = await forceReleaseLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/force',
      generation: seen,
      audit: false,
    });
    expect(result.outcome).toBe('changed');
    expect(result.current?.identity).toBe('second');
    expect((await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/force' }))?.generation).toBe(
      second.generation,
    );
    await second.release();
  });

  it('a force-release with an old metageneration reports that the holder refreshed', async () => {
    const lock = await acquireLock(opts('fresh'));
    await lock.refresh();
    const result = await forceReleaseLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/fresh',
      generation: lock.generation,
      metageneration: '1',
      audit: false,
    });
    expect(result.outcome).toBe('refreshed');
    expect(result.current?.metageneration).toBe(lock.currentMetageneration);
    await lock.release();
  });
});
