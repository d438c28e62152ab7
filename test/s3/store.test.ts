// Locks in S3 through the AWS SDK against the emulator: every format detected (Terraform's S3 lockfile, the plain
// "lock" body, Lockboard's own), data objects skipped, successor safety of force-release, audit before the delete,
// and the protocol's scenarios for Lockboard's S3 lock.
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditWriteError, LockLostError, LockTimeoutError } from '@/lib/lock';
import { acquireS3Lock, S3LockStore, withS3Lock } from '@/lib/lock/stores/s3';
import { startS3, type S3Target } from '../helpers/s3';
import { delay } from '../helpers/requests';

let s: S3Target;
beforeAll(async () => {
  s = await startS3(['tf-state', 'locks']);
});
afterAll(() => s.close());

const put = (Bucket: string, Key: string, Body: string, extra: Record<string, unknown> = {}) =>
  s.client.send(new PutObjectCommand({ Bucket, Key, Body, ...extra }));
const bodyOf = async (Bucket: string, Key: string) =>
  (await s.client.send(new GetObjectCommand({ Bucket, Key }))).Body!.transformToString();

/** Terraform ≥ 1.10 with use_lockfile: <state key>.tflock, LockInfo JSON, created with If-None-Match: *. */
function terraformLockInfo(id: string, who: string) {
  return JSON.stringify({
    ID: id,
    Operation: 'OperationTypeApply',
    Info: '',
    Who: who,
    Version: '1.11.4',
    Created: '2026-11-23T10:00:00.123456789Z',
    Path: 'tf-state/envs/prod/terraform.tfstate',
  });
}

describe('the S3 store', () => {
  it("reads Terraform's S3 lockfile, the plain lock body and Lockboard's lock; skips the .tfstate and other data", async () => {
    await put('tf-state', 'envs/prod/terraform.tfstate', '{"version":4,"serial":9}');
    await put('tf-state', 'envs/prod/terraform.tfstate.tflock', terraformLockInfo('0d8c5e4a-1b2c', 'alice@ci-7'), {
      IfNoneMatch: '*',
      ContentType: 'application/json',
    });
    await put('tf-state', 'jobs/remote.lock', 'lock', { IfNoneMatch: '*' });
    await put('tf-state', 'assets/logo.svg', '<svg/>');
    const held = await acquireS3Lock({
      client: s.client,
      bucket: 'tf-state',
      name: 'jobs/nightly',
      identity: 'cron-1',
      ttlMs: 30_000,
    });
    const store = new S3LockStore({ client: s.client, bucket: 'tf-state' });
    const { locks, skipped } = await store.list();
    expect(skipped, JSON.stringify(locks.map((l) => l.name))).toBe(2);
    const byName = Object.fromEntries(locks.map((l) => [l.name, l]));
    const tf = byName['envs/prod/terraform.tfstate.tflock']!;
    expect([tf.store, tf.format, tf.identity, tf.health, tf.source]).toEqual([
      's3',
      'terraform',
      'alice@ci-7',
      'unknown',
      's3://tf-state/',
    ]);
    expect(tf.details).toEqual(
      expect.arrayContaining([
        ['Operation', 'OperationTypeApply'],
        ['Path', 'tf-state/envs/prod/terraform.tfstate'],
        ['Equivalent command', 'terraform force-unlock 0d8c5e4a-1b2c'],
      ]),
    );
    // "Held since" is Terraform's own Created (as DynamoDB's Terraform lock shows it), not the object's LastModified
    expect(tf.createdAt).toBe('2026-11-23T10:00:00.123Z');
    expect(byName['jobs/remote.lock']!.format).toBe('plain');
    // a listing (ISO LastModified with milliseconds) and a read (HTTP date) name the same version
    expect((await store.inspect(tf.name))!.version).toBe(tf.version);
    const own = byName['jobs/nightly']!;
    expect([own.format, own.identity, own.health, own.generation]).toEqual([
      'lockboard',
      'cron-1',
      'healthy',
      held.fencingToken,
    ]);
    expect(own.versionLabel).toMatch(/^ETag [0-9a-f]{8} · token \d+$/);
    await held.release();
    expect((await store.inspect('jobs/nightly'))!.health).toBe('free');
  });

  it('force-releases with one DeleteObject If-Match, audited before it; a stale version never deletes the successor', async () => {
    const store = new S3LockStore({ client: s.client, bucket: 'tf-state' });
    await put('tf-state', 'envs/dev/terraform.tfstate.tflock', terraformLockInfo('id-1', 'bob@laptop'), {
      IfNoneMatch: '*',
    });
    const seen = (await store.inspect('envs/dev/terraform.tfstate.tflock'))!;
    // the holder finished and a successor took the lock, before the operator confirmed
    await s.client.send(new DeleteObjectCommand({ Bucket: 'tf-state', Key: 'envs/dev/terraform.tfstate.tflock' }));
    await put('tf-state', 'envs/dev/terraform.tfstate.tflock', terraformLockInfo('id-2', 'carol@ci'), {
      IfNoneMatch: '*',
    });
    s.emulator.s3!.requests.clear();
    const stale = await store.forceRelease({ name: seen.name, version: seen.version, reason: 'stuck', operator: 'op' });
    expect(stale.outcome).toBe('changed');
    expect(stale.current!.identity).toBe('carol@ci');
    expect(s.emulator.s3!.requests.entries.filter((e) => e.method === 'DELETE')).toHaveLength(0);
    // the current version goes, after its attempt is recorded
    const now = stale.current!;
    s.emulator.s3!.requests.clear();
    const done = await store.forceRelease({
      name: now.name,
      version: now.version,
      reason: 'apply killed',
      operator: 'op',
    });
    expect(done.outcome).toBe('released');
    const order = s.emulator.s3!.requests.entries.filter((e) => e.method !== 'GET').map((e) => `${e.method} ${e.path}`);
    expect(order[0]).toMatch(/^PUT \/tf-state\/\.lockboard\/audit\//);
    expect(order[1]).toBe('DELETE /tf-state/envs/dev/terraform.tfstate.tflock');
    const attempt = JSON.parse(await bodyOf('tf-state', done.audit[0]!)) as Record<string, string>;
    expect(attempt).toMatchObject({
      event: 'force-release-requested',
      lock: now.name,
      operator: 'op',
      reason: 'apply killed',
    });
  });

  it('refuses a release prepared on a plain lock that a successor rewrote with the same bytes (same ETag)', async () => {
    const store = new S3LockStore({ client: s.client, bucket: 'tf-state' });
    await put('tf-state', 'jobs/same.lock', 'lock', { IfNoneMatch: '*' });
    const seen = (await store.inspect('jobs/same.lock'))!;
    await s.client.send(new DeleteObjectCommand({ Bucket: 'tf-state', Key: 'jobs/same.lock' }));
    await delay(1100); // S3's LastModified has whole seconds
    const successor = await put('tf-state', 'jobs/same.lock', 'lock', { IfNoneMatch: '*' });
    expect(`"${seen.version.split('.')[0]}"`).toBe(successor.ETag); // the ABA case: identical ETags
    const result = await store.forceRelease({ name: seen.name, version: seen.version, reason: 'x', operator: 'op' });
    expect(result.outcome).toBe('changed');
    expect(await bodyOf('tf-state', 'jobs/same.lock')).toBe('lock');
  });

  it('deletes nothing when the attempt cannot be recorded first', async () => {
    const store = new S3LockStore({ client: s.client, bucket: 'tf-state' });
    await put('tf-state', 'jobs/audited.lock', 'lock', { IfNoneMatch: '*' });
    const seen = (await store.inspect('jobs/audited.lock'))!;
    s.emulator.s3!.faults.set({
      rules: [{ method: 'PUT', path: '^/tf-state/\\.lockboard/audit/', errorRate: 1, errorStatus: 503 }],
    });
    await expect(
      store.forceRelease({ name: seen.name, version: seen.version, reason: 'x', operator: 'op' }),
    ).rejects.toBeInstanceOf(AuditWriteError);
    s.emulator.s3!.faults.clear();
    expect(await bodyOf('tf-state', 'jobs/audited.lock')).toBe('lock');
  });

  it('never lists or releases a data object', async () => {
    const store = new S3LockStore({ client: s.client, bucket: 'tf-state' });
    const state = (await store.inspect('envs/prod/terraform.tfstate'))!;
    expect(state.releasable).toBe(false);
    const r = await store.forceRelease({ name: state.name, version: state.version, reason: 'x', operator: 'op' });
    expect(r.outcome).toBe('not-a-lock');
    expect(await bodyOf('tf-state', 'envs/prod/terraform.tfstate')).toContain('serial');
  });
});

describe("Lockboard's lock on S3", () => {
  const base = () => ({
    client: s.client,
    bucket: 'locks',
    ttlMs: 5_000,
    refreshIntervalMs: 500,
    audit: false as const,
  });

  it('takes an uncontended lock with one conditional PUT, refreshes with PUT If-Match, releases to a marker', async () => {
    s.emulator.s3!.requests.clear();
    const lock = await acquireS3Lock({ ...base(), name: 'p/one' });
    const calls = () => s.emulator.s3!.requests.entries.map((e) => `${e.method} ${e.status}`);
    expect(calls()).toEqual(['GET 404', 'PUT 200']);
    const first = lock.etag;
    await delay(1_200);
    expect(lock.etag).not.toBe(first); // refreshed: a new body (nonce, sequence), so a new ETag
    expect(calls().filter((c) => c === 'PUT 200').length).toBeGreaterThanOrEqual(2);
    expect(await lock.release()).toBe('released');
    expect(JSON.parse(await bodyOf('locks', 'p/one'))).toMatchObject({ released: 'true', token: lock.fencingToken });
  });

  it('answers gone for a released marker and never rewrites it (its ETag stays)', async () => {
    const lock = await acquireS3Lock({ ...base(), name: 'p/marker' });
    expect(await lock.release()).toBe('released');
    const store = new S3LockStore({ client: s.client, bucket: 'locks', prefix: 'p/' });
    const marker = (await store.inspect('p/marker'))!;
    expect(marker.health).toBe('free');
    s.emulator.s3!.requests.clear();
    const result = await store.forceRelease({ name: 'p/marker', version: marker.version, reason: 'x', operator: 'o' });
    expect(result.outcome).toBe('gone');
    expect(s.emulator.s3!.requests.entries.filter((e) => e.method !== 'GET' && e.method !== 'HEAD')).toEqual([]);
    expect((await store.inspect('p/marker'))!.version).toBe(marker.version);
  });

  it('serialises holders with fencing tokens that only grow, and waits with reads only', async () => {
    const tokens: bigint[] = [];
    let inside = 0;
    await Promise.all(
      [1, 2, 3].map((i) =>
        withS3Lock({ ...base(), name: 'p/serial', identity: `w-${i}` }, async (lock) => {
          inside++;
          expect(inside).toBe(1);
          tokens.push(BigInt(lock.fencingToken));
          await delay(150);
          inside--;
        }),
      ),
    );
    expect(tokens).toHaveLength(3);
    expect([...tokens].sort((a, b) => (a < b ? -1 : 1))).toEqual(tokens);
    expect(new Set(tokens).size).toBe(3);
  });

  it('times out naming the holder, and takes over a crashed holder once stale with one conditional PUT', async () => {
    const crashed = await acquireS3Lock({ ...base(), name: 'p/crash', identity: 'crashed' });
    (crashed as unknown as { stop(): void }).stop(); // no refresh, no release: a crash
    const err = await acquireS3Lock({ ...base(), name: 'p/crash', timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as LockTimeoutError).holder?.identity).toBe('crashed');
    const successor = await acquireS3Lock({ ...base(), name: 'p/crash', identity: 'successor', timeoutMs: 10_000 });
    expect(BigInt(successor.fencingToken)).toBeGreaterThan(BigInt(crashed.fencingToken));
    await successor.release();
  }, 20_000);

  it('pushes loss through the signal: a force-release aborts the holder with released-by-operator', async () => {
    const lock = await acquireS3Lock({ ...base(), name: 'p/forced', identity: 'job-9' });
    const store = new S3LockStore({ client: s.client, bucket: 'locks' });
    const seen = (await store.inspect('p/forced'))!;
    const r = await store.forceRelease({
      name: 'p/forced',
      version: seen.version,
      reason: 'x',
      operator: 'op',
      identity: 'job-9',
    });
    // a refresh may have landed between the read and the release: then it is refused as `refreshed`
    expect(['released', 'refreshed']).toContain(r.outcome);
    if (r.outcome === 'refreshed') {
      const again = await store.forceRelease({
        name: 'p/forced',
        version: r.current!.version,
        reason: 'x',
        operator: 'op',
      });
      expect(again.outcome).toBe('released');
    }
    await new Promise<void>((resolve) => lock.signal.addEventListener('abort', () => resolve(), { once: true }));
    expect((lock.signal.reason as LockLostError).reason).toBe('released-by-operator');
    expect(await lock.release()).toBe('already-lost');
  });

  it('declares the lock lost before its TTL when refreshes fail', async () => {
    const lock = await acquireS3Lock({ ...base(), name: 'p/failing' });
    s.emulator.s3!.faults.set({
      rules: [{ method: 'PUT', path: '^/locks/p/failing$', errorRate: 1, errorStatus: 503 }],
    });
    const started = Date.now();
    await new Promise<void>((resolve) => lock.signal.addEventListener('abort', () => resolve(), { once: true }));
    s.emulator.s3!.faults.clear();
    expect((lock.signal.reason as LockLostError).reason).toBe('refresh-failed');
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 15_000);
});
