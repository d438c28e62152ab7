// The demo's S3 bucket: Terraform ≥ 1.10 S3 state with its lockfiles (one left by an apply that crashed), a plain
// "lock" object, and Lockboard S3 locks held by simulated holders (a long job and contenders on one lock).
import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { acquireS3Lock, withS3Lock, type S3Lock } from '../lock/stores/s3';
import { s3Status } from '../lock/stores/s3/objects';
import { sleep } from './sleep';
import type { Stopper } from './stopper';

export const S3_BUCKET = 'tf-state-aws';

/** Writes an object unless it exists (If-None-Match: *), so a restarted demo keeps what it wrote. */
async function writeOnce(client: S3Client, key: string, body: string): Promise<void> {
  try {
    await client.send(new PutObjectCommand({ Bucket: S3_BUCKET, Key: key, Body: body, IfNoneMatch: '*' }));
  } catch (err) {
    if (s3Status(err) !== 412) throw err;
  }
}

const lockInfo = (id: string, who: string, key: string, created: Date) =>
  JSON.stringify({
    ID: id,
    Operation: 'OperationTypeApply',
    Info: '',
    Who: who,
    Version: '1.11.4',
    Created: created.toISOString(),
    Path: `${S3_BUCKET}/${key}`,
  });

export async function startS3Holders(
  client: S3Client,
  stop: Stopper,
): Promise<{ loops: Promise<void>[]; held: S3Lock[] }> {
  try {
    await client.send(new CreateBucketCommand({ Bucket: S3_BUCKET }));
  } catch (err) {
    if (s3Status(err) !== 409) throw err; // already there (restored from the data directory)
  }
  await writeOnce(client, 'envs/prod/terraform.tfstate', '{"version":4,"terraform_version":"1.11.4","serial":41}');
  await writeOnce(client, 'envs/staging/terraform.tfstate', '{"version":4,"terraform_version":"1.11.4","serial":7}');
  // An apply that crashed on a laptop: its lockfile stays until an operator clears it
  await writeOnce(
    client,
    'envs/prod/terraform.tfstate.tflock',
    lockInfo(
      '6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
      'dev@laptop-42',
      'envs/prod/terraform.tfstate',
      new Date(Date.now() - 3 * 3600_000),
    ),
  );
  await writeOnce(client, 'jobs/backup.lock', 'lock');
  const base = { client, bucket: S3_BUCKET };
  const held = [
    await acquireS3Lock({
      ...base,
      name: 'jobs/etl-warehouse',
      identity: 'etl-runner-2:7741:c0ffee00',
      purpose: 'warehouse load',
      ttlMs: 60_000,
    }),
  ];
  const loops = [0, 1, 2].map(async (i) => {
    const signal = stop.signal();
    while (!signal.aborted) {
      try {
        await withS3Lock(
          {
            ...base,
            name: 'jobs/publish-artifacts',
            identity: `publisher-${i}:${2000 + i}:${String(i).repeat(8)}`,
            ttlMs: 20_000,
            purpose: 'publish',
            signal,
          },
          () => sleep(2_000 + Math.random() * 3_000, signal),
        );
      } catch {
        // stopping, or a lost race: try again
      }
      await sleep(1_000 + Math.random() * 2_000, signal);
    }
  });
  return { loops, held };
}
