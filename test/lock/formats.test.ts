// Every lock format from lock-formats.md, written as its implementation writes it, read through listLocks and
// inspected on server time; data objects never listed or released; format-specific release (certmagic's hold).
import { describe, expect, it } from 'vitest';
import { forceReleaseLock, getLock, listLocks, type LockInfo } from '@/lib/lock';
import { expectGcsError, startEmulatorPerTest, type Target } from '../helpers/gcs';
import { describeRequests, requestsFor } from '../helpers/requests';
import * as w from '../helpers/writers';

let t: Target;
startEmulatorPerTest((target) => (t = target));

const list = async (prefix = '') => listLocks({ storage: t.storage, bucket: t.bucket, prefix });
const byName = (locks: LockInfo[], name: string) => locks.find((l) => l.name === name);
/** Moves the emulator's clock (its stamps and Date header) by `ms` from real time. */
const serverClockAhead = (ms: number) => t.emulator!.faults.set({ clockOffsetMs: ms });

async function writeMixedBucket() {
  const { storage, bucket } = t;
  await w.writeTerraformState(storage, bucket, 'prod/default.tfstate');
  await w.writeTerraformLock(storage, bucket, 'prod/default.tfstate', 'ann@laptop');
  await w.writePulumiLock(storage, bucket, '', 'organization/web/prod', 'bob');
  await storage.bucket(bucket).file('.pulumi/stacks/organization/web/prod.json').save('{"version":3}');
  await storage.bucket(bucket).file('.pulumi/meta.yaml').save('version: 1\n');
  await w.writeVaultLock(storage, bucket, 'vault/core/lock', 'vault-node-a');
  await w.writeRubyLock(storage, bucket, 'locks/ruby', 60);
  await w.writeGcslockLock(storage, bucket, 'locks/py', 'worker-3', 30);
  await w.writeGmutexLock(storage, bucket, 'locks/gmutex', 30);
  await w.writeGoGcslock(storage, bucket, 'locks/nbf', Date.now() + 60_000);
  await w.writeCertmagicLock(storage, bucket, 'caddy/locks/example.com.lock');
  await w.writeHudiLock(storage, bucket, 'tables/orders', Date.now() + 60_000);
  await storage.bucket(bucket).file('tables/orders/.hoodie/hoodie.properties').save('hoodie.table.name=orders');
  await w.writeResticLock(storage, bucket, 'backups/');
  await w.writePlainLock(storage, bucket, 'locks/gsutil');
  await storage.bucket(bucket).file('locks/').save('');
  await storage.bucket(bucket).file('locks/notes.txt').save('hello');
  await storage
    .bucket(bucket)
    .file('locks/big')
    .save(Buffer.alloc(70 * 1024));
}

describe('formats in a mixed bucket', () => {
  it('lists each lock in its own format with its owner, and never a data or unrecognised object', async () => {
    await writeMixedBucket();
    const { locks, skipped } = await list();
    const formats = Object.fromEntries(
      locks.map((l) => [l.name.replace(/[0-9a-f-]{36}\.json$|[0-9a-f]{64}$/, '*'), l.format]),
    );
    expect(formats).toEqual({
      'prod/default.tflock': 'terraform',
      '.pulumi/locks/organization/web/prod/*': 'pulumi',
      'vault/core/lock': 'vault',
      'locks/ruby': 'ruby',
      'locks/py': 'gcslock',
      'locks/gmutex': 'gmutex',
      'locks/nbf': 'go-gcslock',
      'caddy/locks/example.com.lock': 'certmagic',
      'tables/orders/.hoodie/.locks/table_lock.json': 'hudi',
      'backups/locks/*': 'restic',
      'locks/gsutil': 'plain',
    });
    expect(skipped.map((s) => [s.name, s.class]).sort()).toEqual(
      [
        ['.pulumi/meta.yaml', 'other'],
        ['.pulumi/stacks/organization/web/prod.json', 'data'],
        ['locks/', 'other'],
        ['locks/big', 'data'],
        ['locks/notes.txt', 'other'],
        ['prod/default.tfstate', 'data'],
        ['tables/orders/.hoodie/hoodie.properties', 'data'],
      ].sort(),
    );
    expect(byName(locks, 'prod/default.tflock')).toMatchObject({ identity: 'ann@laptop', health: 'unknown' });
    expect(byName(locks, 'prod/default.tflock')!.details).toContainEqual(['Operation', 'OperationTypeApply']);
    expect(locks.find((l) => l.format === 'pulumi')).toMatchObject({ identity: 'bob@ci-runner-7', health: 'unknown' });
    expect(locks.find((l) => l.format === 'pulumi')!.details).toContainEqual(['Stack', 'organization/web/prod']);
    expect(byName(locks, 'vault/core/lock')).toMatchObject({ identity: 'vault-node-a', health: 'healthy' });
    expect(byName(locks, 'vault/core/lock')!.releaseNote).toMatch(/steps down/);
    expect(byName(locks, 'locks/py')).toMatchObject({ identity: 'worker-3', health: 'healthy' });
    expect(byName(locks, 'caddy/locks/example.com.lock')).toMatchObject({ health: 'healthy', temporaryHold: true });
    expect(byName(locks, 'locks/gsutil')).toMatchObject({ health: 'unknown', releasable: true });
  });

  it('costs one list call per page and reads each needed body once per generation', async () => {
    await writeMixedBucket();
    t.emulator!.requests.clear();
    await list();
    await list();
    const entries = t.emulator!.requests.entries;
    const lists = entries.filter((e) => e.method === 'GET' && e.path.endsWith('/o'));
    const bodyReads = entries.filter((e) => e.query.alt === 'media');
    expect(lists).toHaveLength(2);
    // Terraform, Pulumi, Hudi, and the tiny metadata-free plain candidates (gsutil's lock, notes.txt, meta.yaml)
    const needed = new Set(bodyReads.map((e) => e.path));
    expect(bodyReads).toHaveLength(needed.size);
    expect(needed.size).toBe(6);
    expect([...needed].some((p) => p.includes('default.tfstate'))).toBe(false);
  });
});

describe('health on server time, by each format rule', () => {
  it('judges a Ruby lock whose holder stopped refreshing overdue, then expired', async () => {
    await w.writeRubyLock(t.storage, t.bucket, 'locks/ruby', 40);
    expect(byName((await list()).locks, 'locks/ruby')!.health).toBe('healthy');
    serverClockAhead(9_000); // refresh inferred as 40 s / 8 = 5 s: overdue after 7.5 s (Date header: 1 s steps)
    expect(byName((await list()).locks, 'locks/ruby')!.health).toBe('overdue');
    serverClockAhead(41_000);
    expect(byName((await list()).locks, 'locks/ruby')!.health).toBe('expired');
  });

  it('judges gcslock, gmutex, Vault and certmagic by their own stale rules', async () => {
    await w.writeGcslockLock(t.storage, t.bucket, 'locks/py', 'worker', 30);
    await w.writeGmutexLock(t.storage, t.bucket, 'locks/gm', 20);
    await w.writeVaultLock(t.storage, t.bucket, 'core/lock', 'node-a');
    await w.writeCertmagicLock(t.storage, t.bucket, 'caddy/x.lock');
    const health = async () => Object.fromEntries((await list()).locks.map((l) => [l.name, l.health]));
    expect(await health()).toEqual({
      'locks/py': 'healthy',
      'locks/gm': 'healthy',
      'core/lock': 'healthy',
      'caddy/x.lock': 'healthy',
    });
    serverClockAhead(17_000);
    expect(await health()).toMatchObject({ 'core/lock': 'expired', 'locks/py': 'healthy', 'locks/gm': 'healthy' });
    serverClockAhead(25_000);
    expect(await health()).toMatchObject({ 'locks/gm': 'expired', 'locks/py': 'healthy', 'caddy/x.lock': 'healthy' });
    serverClockAhead(63_000);
    expect(await health()).toMatchObject({ 'locks/py': 'expired', 'caddy/x.lock': 'expired' });
  });

  it('shows released markers as free: go-gcslock past nbf, certmagic without a hold, Hudi expired', async () => {
    await w.writeGoGcslock(t.storage, t.bucket, 'locks/nbf', Date.now() - 5_000);
    await w.writeHudiLock(t.storage, t.bucket, 't', Date.now() + 60_000, true);
    await t.storage.bucket(t.bucket).file('caddy/y.lock').save('');
    const { locks } = await list();
    expect(locks.map((l) => [l.name, l.health]).sort()).toEqual(
      [
        ['caddy/y.lock', 'free'],
        ['locks/nbf', 'free'],
        ['t/.hoodie/.locks/table_lock.json', 'free'],
      ].sort(),
    );
  });
});

describe('release by format', () => {
  it('refuses to release a data object or an unrecognised one, whatever generation is given, and deletes nothing', async () => {
    const state = await w.writeTerraformState(t.storage, t.bucket, 'prod/default.tfstate');
    await t.storage.bucket(t.bucket).file('locks/notes.txt').save('hello');
    const notes = await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/notes.txt' });
    for (const [name, generation] of [
      ['prod/default.tfstate', state.generation],
      ['locks/notes.txt', notes!.generation],
    ] as const) {
      const result = await forceReleaseLock({ storage: t.storage, bucket: t.bucket, name, generation, audit: false });
      expect(result.outcome).toBe('not-a-lock');
      expect(result.current?.releasable).toBe(false);
      expect((await t.storage.bucket(t.bucket).file(name).exists())[0]).toBe(true);
    }
    expect(t.emulator!.requests.count((e) => e.method === 'DELETE')).toBe(0);
  });

  it('clears a certmagic temporary hold with a conditional PATCH, then deletes that generation', async () => {
    const seen = await w.writeCertmagicLock(t.storage, t.bucket, 'caddy/z.lock');
    await expectGcsError(t.storage.bucket(t.bucket).file('caddy/z.lock').delete(), 403);
    t.emulator!.requests.clear();
    const result = await forceReleaseLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'caddy/z.lock',
      ...seen,
      audit: false,
    });
    expect(result.outcome).toBe('released');
    expect(describeRequests(requestsFor(t.emulator!, 'caddy/z.lock'))).toEqual([
      'GET object 200',
      'PATCH object [ifGenerationMatch,ifMetagenerationMatch] 200',
      'DELETE object [ifGenerationMatch,ifMetagenerationMatch] 204',
    ]);
    expect((await t.storage.bucket(t.bucket).file('caddy/z.lock').exists())[0]).toBe(false);
  });

  it('refuses to release a gcslock lock whose owner changed by PATCH since the operator looked', async () => {
    const seen = await w.writeGcslockLock(t.storage, t.bucket, 'locks/py', 'worker-1', 30);
    await w.patchGcslockOwner(t.storage, t.bucket, 'locks/py', 'worker-2', seen);
    const result = await forceReleaseLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/py',
      ...seen,
      audit: false,
    });
    expect(result.outcome).toBe('refreshed');
    expect(result.current?.identity).toBe('worker-2');
    expect((await t.storage.bucket(t.bucket).file('locks/py').exists())[0]).toBe(true);
  });

  it('releases a Terraform lock by its generation (the lock ID of terraform force-unlock)', async () => {
    const seen = await w.writeTerraformLock(t.storage, t.bucket, 'prod/default.tfstate');
    const lock = await getLock({ storage: t.storage, bucket: t.bucket, name: 'prod/default.tflock' });
    expect(lock?.generation).toBe(seen.generation);
    const result = await forceReleaseLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'prod/default.tflock',
      generation: seen.generation,
      audit: false,
    });
    expect(result.outcome).toBe('released');
  });
});
