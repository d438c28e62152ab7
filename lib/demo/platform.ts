// The demo's second bucket, as a platform team's state bucket looks: Terraform state beside its .tflock, a Pulumi
// backend, Vault's HA lock rewritten by a live leader, Python gcslock locks (one refreshed, one whose holder died),
// and a Caddy certmagic lock under a temporary hold. Each is written the way its own implementation writes it.
import type { Storage } from '@google-cloud/storage';
import { acquireLock } from '../lock';
import { background } from './background';
import { sleep } from './sleep';
import type { Stopper } from './stopper';
import {
  patchGcslockOwner,
  writeCertmagicLock,
  writeGcslockLock,
  writePulumiLock,
  writeTerraformLock,
  writeTerraformState,
  writeVaultLock,
  type Written,
} from './writers';

export const PLATFORM_BUCKET = 'platform-state';

/** Runs `write`, treating "already there" (412, from an earlier demo run with the same data directory) as done. */
async function once(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if ((err as { code?: number }).code !== 412) throw err;
  }
}

/** The platform bucket's locks and data, written once (a restarted demo keeps what the last one wrote). */
async function seed(storage: Storage, bucket: string): Promise<void> {
  await once(() => writeTerraformState(storage, bucket, 'network/prod/default.tfstate'));
  await once(() => writeTerraformLock(storage, bucket, 'network/prod/default.tfstate', 'ann@laptop-ann'));
  await once(() => writeTerraformState(storage, bucket, 'network/staging/default.tfstate')); // unlocked: data only
  const [existingPulumi] = await storage.bucket(bucket).getFiles({ prefix: 'pulumi/.pulumi/locks/', maxResults: 1 });
  if (existingPulumi.length === 0) {
    await storage
      .bucket(bucket)
      .file('pulumi/.pulumi/stacks/acme/web/prod.json')
      .save(JSON.stringify({ version: 3, checkpoint: {} }), { resumable: false });
    await writePulumiLock(storage, bucket, 'pulumi/', 'acme/web/prod', 'bob');
  }
  await once(() => writeCertmagicLock(storage, bucket, 'caddy/locks/example.com.lock'));
  // A gcslock holder that died: its lock expires 90 s after the demo starts and stays until cleared
  await once(() => writeGcslockLock(storage, bucket, 'jobs/dbt-weekly.lock', 'dbt-weekly@runner-3', 90));
}

/** Vault's active node rewrites its lock every 5 s (a new generation each time); standbys take over after 15 s. */
function vaultLeader(storage: Storage, bucket: string, stop: Stopper): Promise<void> {
  const name = 'vault/core/lock';
  let seen: string | null | undefined = null; // null: not read yet; undefined: absent (or replaced), write anew
  return background('Vault leader on gs://platform-state', stop, async (signal) => {
    if (seen === null) {
      const [meta] = await storage
        .bucket(bucket)
        .file(name)
        .getMetadata()
        .catch(() => [undefined]);
      seen = meta ? String(meta.generation) : undefined;
    }
    try {
      seen = (await writeVaultLock(storage, bucket, name, 'vault-0.vault-internal:8201', seen)).generation;
    } catch {
      seen = undefined; // someone removed or replaced it: start over
    }
    await sleep(5_000, signal);
  });
}

/** A live gcslock holder: metadata PATCHes keep its 60 s expiry moving. */
function gcslockHolder(storage: Storage, bucket: string, stop: Stopper): Promise<void> {
  const name = 'jobs/dbt-nightly.lock';
  let written: Written | undefined;
  return background('gcslock holder on gs://platform-state', stop, async (signal) => {
    try {
      written = written
        ? await patchGcslockOwner(storage, bucket, name, 'dbt-nightly@runner-1', written)
        : await writeGcslockLock(storage, bucket, name, 'dbt-nightly@runner-1', 60);
    } catch {
      written = undefined;
      await storage
        .bucket(bucket)
        .file(name)
        .delete({ ignoreNotFound: true })
        .catch(() => {});
    }
    await sleep(15_000, signal);
  });
}

/**
 * An operator who clears a Lockboard lock by hand (gcloud storage rm, no generation): the console's GCS
 * notifications record it as deleted outside Lockboard.
 */
function clearedByHand(storage: Storage, bucket: string, stop: Stopper): Promise<void> {
  return background('hand-cleared lock on gs://platform-state', stop, async (signal) => {
    await sleep(60_000, signal);
    if (signal.aborted) return;
    try {
      const lock = await acquireLock({
        storage,
        bucket,
        name: 'jobs/backfill',
        identity: 'backfill-runner:7:0badc0de',
        purpose: 'backfill (cleared by hand every minute)',
        ttlMs: 60_000,
        signal,
      });
      await sleep(10_000, signal);
      await storage.bucket(bucket).file('jobs/backfill').delete();
      await lock.release().catch(() => undefined);
    } catch {
      // stopping, or the emulator's write-rate limit: try again next minute
    }
  });
}

export async function startPlatformHolders(storage: Storage, stop: Stopper): Promise<Promise<void>[]> {
  const bucket = PLATFORM_BUCKET;
  await seed(storage, bucket);
  return [
    vaultLeader(storage, bucket, stop),
    gcslockHolder(storage, bucket, stop),
    clearedByHand(storage, bucket, stop),
  ];
}
