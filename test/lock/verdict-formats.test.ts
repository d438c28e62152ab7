// The verdict on GCS lock objects from their own bytes and the store's clock (stores.md "Verdict"), against the
// emulator with each format written as its implementation writes it: Lockboard's own refreshing lock alive, then expired
// (unknown, never gone) once its holder stops and its TTL runs out on the server's clock; Vault's leader alive, overdue (unknown), expired;
// gcslock taken and not yet refreshed (unknown, with the time that settles it), refreshed (alive); Terraform and
// Pulumi unknown, saying what would settle them.
import { describe, expect, it } from 'vitest';
import { acquireLock, inspectLockOn } from '@/lib/lock';
import { verdictOf } from '@/lib/lock/verdict/verdict';
import { startEmulatorPerTest, type Target } from '../helpers/gcs';
import { freezeHolder, lockOptions } from '../helpers/lock';
import * as w from '../helpers/writers';

let t: Target;
startEmulatorPerTest((target) => (t = target));

const judge = async (name: string) => {
  const view = await inspectLockOn(`gs://${t.bucket}`, name, { env: { LOCKBOARD_GCS_ENDPOINT: t.emulator!.url } });
  return view ? { ...verdictOf(view)!, health: view.health } : undefined;
};
/** Moves the emulator's clock (its stamps and Date header) by `ms` from real time. */
const serverClockAhead = (ms: number) => t.emulator!.faults.set({ clockOffsetMs: ms });

describe('heartbeat formats judged by their own rules', () => {
  it('judges Lockboard’s own refreshing lock alive, and expired (never gone) once its holder stops past its TTL', async () => {
    const lock = await acquireLock(lockOptions(t, { ttlMs: 3000, refreshIntervalMs: 1000 })('deploy'));
    const v = (await judge('locks/deploy'))!;
    expect(v.verdict).toBe('alive');
    expect(v.sentence).toMatch(/^Alive: its holder wrote it \d+ s ago \(it refreshes every 1 s\)\.$/);
    expect(v.evidence).toEqual([
      {
        fact: expect.stringMatching(/^updated \S+(, \d+ s after its creation)?, refresh every 1 s, stale in \d+ s$/),
        from: "the object's write times and Lockboard lock fields",
        at: expect.any(String),
      },
    ]);
    freezeHolder(lock); // it stops refreshing, as a crashed holder does
    serverClockAhead(10_000);
    // past its TTL by the format's own rule: a contender takes it over, but nothing read proves the holder gone
    const expired = (await judge('locks/deploy'))!;
    expect(expired.health).toBe('expired');
    expect(expired.verdict).toBe('unknown');
    expect(expired.sentence).toMatch(
      /^Unknown: its last write was \d+ s ago, \d+ s past Lockboard lock’s own expiry: by that rule a contender takes it over; that expires the lock, but nothing read shows whether its holder still runs\.$/,
    );
  });

  it('judges Vault’s HA lock alive while rewritten, overdue as unknown with its settle time, then expired', async () => {
    await w.writeVaultLock(t.storage, t.bucket, 'vault/core/lock', 'vault-node-a');
    expect((await judge('vault/core/lock'))!.verdict).toBe('alive');
    serverClockAhead(9_000);
    const late = (await judge('vault/core/lock'))!;
    expect(late.verdict).toBe('unknown');
    expect(late.sentence).toMatch(
      /its refresh is overdue \(last \d+ s ago, every 5 s\); by Vault HA lock’s rule it expires in \d+ s unless it refreshes\.$/,
    );
    // the store's clock comes from the server's Date header (whole seconds): 15 s − 9 s, ± 1 s
    expect(late.settleMs).toBeGreaterThan(4_000);
    expect(late.settleMs).toBeLessThanOrEqual(7_500);
    serverClockAhead(16_000);
    const expired = (await judge('vault/core/lock'))!;
    expect([expired.health, expired.verdict]).toEqual(['expired', 'unknown']);
  });

  it('judges a gcslock lock unknown until a refresh is seen, then alive', async () => {
    const seen = await w.writeGcslockLock(t.storage, t.bucket, 'locks/py', 'worker-3', 30);
    const first = (await judge('locks/py'))!;
    expect(first.verdict).toBe('unknown');
    expect(first.sentence).toMatch(
      /^Unknown: taken \d+ s ago and not refreshed since; Python gcslock states no refresh interval: a refresh before its expiry \(in \d+ s\) would show it alive, none would make it expire\.$/,
    );
    expect(first.settleMs).toBeGreaterThan(25_000);
    serverClockAhead(2_000); // the refresh comes 2 s after the take, on the server's clock
    await w.patchGcslockOwner(t.storage, t.bucket, 'locks/py', 'worker-3', seen); // gcslock's refresh: a PATCH
    const v = (await judge('locks/py'))!;
    expect(v.verdict).toBe('alive');
    expect(v.sentence).toMatch(/^Alive: its holder refreshed it \d+ s ago, within its expiry \(in \d+ s\)\.$/);
  });

  it('says Terraform and Pulumi write no heartbeat, and what would settle them', async () => {
    await w.writeTerraformLock(t.storage, t.bucket, 'prod/default.tfstate', 'ann@laptop');
    const tf = (await judge('prod/default.tflock'))!;
    expect(tf.verdict).toBe('unknown');
    expect(tf.sentence).toMatch(
      /^Unknown: Terraform writes no heartbeat: only Who \(ann@laptop\) is known; whether its run still goes on would settle it\.$/,
    );
    expect(tf.settleMs).toBeUndefined();
    await w.writePulumiLock(t.storage, t.bucket, '', 'organization/web/prod', 'bob');
    const name = (await t.storage.bucket(t.bucket).getFiles({ prefix: '.pulumi/locks/' }))[0][0]!.name;
    const pulumi = (await judge(name))!;
    expect(pulumi.sentence).toMatch(/^Unknown: Pulumi writes no heartbeat: only bob@\S+ and pid \d+ are known/);
  });
});
