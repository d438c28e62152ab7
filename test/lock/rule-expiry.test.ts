// Expiry by a tool's own rule is no evidence that the holder is gone (stores.md "The reach of evidence"): a live
// holder whose lock ran past its format's expiry (a holder frozen by a GC pause, a stopped VM, a partition) is
// `health: expired` and `unknown`, never `gone`, so `release --if-gone` leaves it (exit 11, nothing touched) while a
// releaser may still clear it as expired. Shown on the object store (Lockboard's own lock and Vault's HA lock on the
// emulator, whose clock the test moves) and on Redis (the seed's SETNX stamp, a real redis-server).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock } from '@/lib/lock';
import { runCli } from '../helpers/cli';
import { startEmulatorPerTest, type Target } from '../helpers/gcs';
import { freezeHolder, lockOptions, thawHolder } from '../helpers/lock';
import { startRedis, type TestRedis } from '../helpers/redis';
import * as w from '../helpers/writers';

interface Judged {
  health: string;
  verdict: string;
  sentence: string;
  version: string;
}

/** `lockboard status SOURCE NAME --json`, the view a script reads. */
async function statusOf(source: string, name: string, env: Record<string, string>): Promise<Judged> {
  const r = await runCli(['status', source, name, '--json'], env);
  return JSON.parse(r.stdout) as Judged;
}

/** `release --if-gone` on a lock past its rule: refused, naming the verdict; the lock stays as it was. */
async function expectIfGoneRefused(source: string, name: string, env: Record<string, string>) {
  const before = await statusOf(source, name, env);
  expect([before.health, before.verdict]).toEqual(['expired', 'unknown']);
  expect(before.sentence).toMatch(/that expires the lock, but nothing read shows whether its holder still runs/);
  const r = await runCli(['release', source, name, '--if-gone', '--reason', 'looks dead'], env);
  expect(r.code, r.stdout + r.stderr).toBe(11);
  expect(r.stdout + r.stderr).toMatch(/unknown/);
  expect((await statusOf(source, name, env)).version).toBe(before.version);
}

describe('a lock past its own expiry rule, its holder alive', () => {
  let t: Target;
  startEmulatorPerTest((target) => (t = target));
  const gcsEnv = () => ({ LOCKBOARD_GCS_ENDPOINT: t.emulator!.url });

  it('Lockboard’s own GCS lock, its holder paused past its TTL: expired, not gone; --if-gone leaves it', async () => {
    const lock = await acquireLock(lockOptions(t, { ttlMs: 3000, refreshIntervalMs: 1000 })('deploy'));
    freezeHolder(lock); // alive, but not refreshing: a GC pause, a stopped VM
    t.emulator!.faults.set({ clockOffsetMs: 10_000 });
    await expectIfGoneRefused(`gs://${t.bucket}/locks/`, 'deploy', gcsEnv());
    thawHolder(lock);
    await lock.release().catch(() => undefined); // its own protocol decides whether it still holds: not the verdict's
  });

  it('Vault’s HA lock past its 15 s rule: expired, not gone', async () => {
    await w.writeVaultLock(t.storage, t.bucket, 'vault/core/lock', 'vault-node-a');
    t.emulator!.faults.set({ clockOffsetMs: 16_000 });
    await expectIfGoneRefused(`gs://${t.bucket}/vault/`, 'core/lock', gcsEnv());
  });
});

describe('a Redis SETNX stamp past its time', () => {
  let r: TestRedis;
  beforeAll(async () => {
    r = await startRedis();
  }, 30_000);
  afterAll(() => r?.stop());

  it('is expired, not gone: --if-gone leaves it', async () => {
    await r.client.sendCommand(['SET', 'jobs:lock.setnx', String(Date.now() / 1000 - 5)]);
    await expectIfGoneRefused(`redis://127.0.0.1:${r.port}/0`, 'jobs:lock.setnx', {});
    expect(await r.client.sendCommand(['EXISTS', 'jobs:lock.setnx'])).toBe(1);
  });
});
