// Clock skew, 429 and 503 faults, dropped create responses, interop with Ruby and Terraform locks, audit events.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireLock, getLock, LockTimeoutError, withLock } from '@/lib/lock';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { freezeHolder, lockOptions } from '../helpers/lock';
import { delay, describeRequests, requestsFor } from '../helpers/requests';

let t: Target;
afterEach(async () => {
  await t.close();
});

const opts = (name: string, extra: Record<string, unknown> = {}) =>
  lockOptions(t, { ttlMs: 3000, refreshIntervalMs: 500 })(name, extra);

describe('clock skew', () => {
  for (const offset of [150_000, -150_000]) {
    it(`judges staleness on server time with the server clock ${offset > 0 ? 'ahead' : 'behind'} by 150 s`, async () => {
      t = await startTestEmulator({ faults: { clockOffsetMs: offset } });
      const holder = await acquireLock(opts('skew', { identity: 'holder' }));
      const err = await acquireLock(opts('skew', { timeoutMs: 0 })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockTimeoutError);
      expect((err as LockTimeoutError).holder?.health).toBe('healthy');
      // crash the holder; the lock is taken over about TTL after its last refresh, on server time
      freezeHolder(holder);
      const start = performance.now();
      const next = await acquireLock(opts('skew', { identity: 'next' }));
      const waited = performance.now() - start;
      expect(waited).toBeGreaterThan(1500);
      expect(waited).toBeLessThan(3000 + 1500);
      expect(next.identity).toBe('next');
      await next.release();
    });
  }
});

describe('write-rate limit and server errors', () => {
  it('acquires, refreshes and releases with the write-rate limit on', async () => {
    t = await startTestEmulator({ faults: { rateLimit: { enabled: true, perSecond: 1, burst: 1 } } });
    const lock = await acquireLock(opts('rl', { ttlMs: 6000, refreshIntervalMs: 400 }));
    await delay(1500);
    expect(lock.isHealthy).toBe(true);
    expect(t.emulator!.requests.count((e) => e.status === 429)).toBeGreaterThan(0);
    expect(await lock.release()).toEqual({ outcome: 'released' });
  });

  it('acquires, refreshes and releases through two 503s on each of them', async () => {
    const twice = (method: string) => ({ method, errorRate: 1, errorStatus: 503 as const, times: 2 });
    t = await startTestEmulator({ faults: { rules: [twice('POST'), twice('PATCH'), twice('DELETE')] } });
    const lock = await acquireLock(opts('flaky', { ttlMs: 6000, refreshIntervalMs: 300 }));
    const statuses = (method: string) =>
      requestsFor(t.emulator!, 'locks/flaky')
        .filter((e) => e.method === method)
        .map((e) => e.status);
    await vi.waitFor(() => expect(statuses('PATCH')).toContain(200), { timeout: 5000, interval: 50 });
    expect(lock.isHealthy).toBe(true);
    expect(await lock.release()).toEqual({ outcome: 'released' });
    expect(statuses('POST')).toEqual([503, 503, 200]);
    expect(statuses('PATCH').slice(0, 3)).toEqual([503, 503, 200]);
    expect(statuses('DELETE')).toEqual([503, 503, 204]);
    expect(await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/flaky' })).toBeNull();
  });

  it('survives 503 on a third of requests (seeded: the first two requests fail, and a failure replays)', async () => {
    t = await startTestEmulator({ faults: { seed: 7, rules: [{ errorRate: 0.33, errorStatus: 503 }] } });
    for (let i = 0; i < 3; i++) {
      const lock = await acquireLock(opts('flaky', { ttlMs: 6000, refreshIntervalMs: 300 }));
      await delay(350);
      expect(lock.isHealthy).toBe(true);
      expect(['released', 'gone']).toContain((await lock.release()).outcome);
    }
    const statuses = t.emulator!.requests.entries.map((e) => e.status);
    expect(statuses.slice(0, 2)).toEqual([503, 503]);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(2);
  });

  it('adopts its own lock after a dropped create response in at most 3 requests', async () => {
    t = await startTestEmulator();
    t.emulator!.faults.set({ rules: [{ method: 'POST', dropResponseRate: 1, times: 1 }] });
    const lock = await acquireLock(opts('adopt'));
    const reqs = describeRequests(requestsFor(t.emulator!, 'locks/adopt'));
    expect(reqs.slice(0, 3)).toEqual([
      expect.stringMatching(/^POST upload \[ifGenerationMatch\] 0$/),
      'GET object 200',
      'PATCH object [ifGenerationMatch,ifMetagenerationMatch] 200',
    ]);
    expect(lock.isHealthy).toBe(true);
    await lock.release();
  });

  it('never turns off the client retries of the caller’s Storage object', async () => {
    t = await startTestEmulator();
    const lock = await acquireLock(opts('retries'));
    await lock.release();
    expect(t.storage.retryOptions.autoRetry).toBe(true);
  });
});

describe('interop', () => {
  const put = (name: string, metadata: Record<string, string>, body = '{}') =>
    t.storage
      .bucket(t.bucket)
      .file(name)
      .save(body, { resumable: false, metadata: { metadata }, preconditionOpts: { ifGenerationMatch: 0 } });

  it('respects a Ruby-format lock and takes it over when expires_at passes on server time', async () => {
    t = await startTestEmulator({ faults: { clockOffsetMs: -60_000 } });
    // the server's time to the millisecond (a Date header is truncated to the second): a probe object's stamp
    const probe = t.storage.bucket(t.bucket).file('probe');
    await probe.save('x', { resumable: false });
    const serverNow = Date.parse(String(probe.metadata.updated));
    expect(Math.abs(serverNow - (Date.now() - 60_000))).toBeLessThan(5_000);
    await put('locks/ruby', { identity: 'ruby-worker', expires_at: String(serverNow / 1000 + 3) });
    const err = await acquireLock(opts('ruby', { timeoutMs: 0 })).catch((e: unknown) => e);
    const log = t
      .emulator!.requests.entries.map((e) => `${e.method} ${e.path} ${JSON.stringify(e.query)} ${e.status}`)
      .join('\n');
    expect(err, `expected a timeout, got ${String(err)}; server ${serverNow}; requests:\n${log}`).toBeInstanceOf(
      LockTimeoutError,
    );
    expect((err as LockTimeoutError).holder).toMatchObject({ format: 'ruby', identity: 'ruby-worker' });
    const next = await acquireLock(opts('ruby', { timeoutMs: 8000 }));
    expect((await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/ruby' }))?.format).toBe('lockboard');
    await next.release();
  });

  it('never takes over a Terraform .tflock object', async () => {
    t = await startTestEmulator();
    await put(
      'locks/state.tflock',
      {},
      JSON.stringify({ ID: 'abc', Operation: 'OperationTypeApply', Who: 'ann@laptop' }),
    );
    const err = await acquireLock(opts('state.tflock', { timeoutMs: 1200 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as Error).message).toMatch(/never becomes stale by itself/);
    const info = await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/state.tflock' });
    expect(info).toMatchObject({ format: 'terraform', health: 'unknown', identity: 'ann@laptop' });
  });
});

describe('audit events', () => {
  const auditEvents = async () => {
    const [files] = await t.storage.bucket(t.bucket).getFiles({ prefix: '.lockboard/audit/' });
    return files.map((f) => f.metadata.metadata as Record<string, string>);
  };

  it('writes acquired, took-over and released (with outcome) events with the protocol metadata', async () => {
    t = await startTestEmulator();
    const crashed = await acquireLock(
      opts('audited', { identity: 'crashed', audit: {}, ttlMs: 1000, refreshIntervalMs: 300 }),
    );
    freezeHolder(crashed);
    await delay(1100);
    await expect(
      withLock(opts('audited', { identity: 'worker', audit: {} }), async () => {
        throw new Error('migration failed');
      }),
    ).rejects.toThrow('migration failed');
    const events = await auditEvents();
    expect(events.map((e) => e.event).sort()).toEqual(['acquired', 'released', 'took-over']);
    expect(events.find((e) => e.event === 'took-over')).toMatchObject({
      previous_identity: 'crashed',
      identity: 'worker',
      lock: 'locks/audited',
    });
    expect(events.find((e) => e.event === 'released')).toMatchObject({ outcome: 'error', error: 'migration failed' });
    expect(Number(events.find((e) => e.event === 'released')!.held_ms)).toBeGreaterThanOrEqual(0);
    const [files] = await t.storage.bucket(t.bucket).getFiles({ prefix: '.lockboard/audit/' });
    expect(files[0]!.name).toMatch(
      /^\.lockboard\/audit\/\d{4}\/\d{2}\/\d{2}\/\d{2}\/\d{8}T\d{6}\.\d{6}Z-[0-9a-f]{8}\.json$/,
    );
  });

  it('neither fails nor slows acquire and release when audit writes fail', async () => {
    t = await startTestEmulator({
      // every audit write hangs 1.5 s and then fails: a lock operation that waited for one would show it
      faults: {
        rules: [
          { path: '^/upload/', query: 'name=\\.lockboard', latencyMs: [1500, 1500], errorRate: 1, errorStatus: 503 },
        ],
      },
    });
    const start = performance.now();
    const lock = await acquireLock(opts('audit-fail', { audit: {} }));
    expect(performance.now() - start).toBeLessThan(1000);
    const releaseStart = performance.now();
    expect(await lock.release()).toEqual({ outcome: 'released' });
    // release waits for its own audit events for at most 2 s
    expect(performance.now() - releaseStart).toBeLessThan(2_000 + 200);
    const failedAudits = t.emulator!.requests.count(
      (e) => e.status === 503 && e.query.name!.startsWith('.lockboard/audit/'),
    );
    expect(failedAudits).toBeGreaterThanOrEqual(2);
    expect(await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/audit-fail' })).toBeNull();
  });
});

describe('trying once', () => {
  it('reports the storage error, not a timeout, when storage fails with timeoutMs 0', async () => {
    t = await startTestEmulator({ faults: { rules: [{ errorRate: 1, errorStatus: 503 }] } });
    const err = await acquireLock(opts('down', { timeoutMs: 0 })).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(LockTimeoutError);
    expect((err as { status?: number }).status).toBe(503);
  });
});
