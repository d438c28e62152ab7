// The verdict on S3 lock objects from their own bytes and the store's clock (stores.md "Verdict"), against the
// emulator's S3 face: Lockboard's own S3 lock alive while its holder refreshes and expired (unknown, never gone) once its TTL has run out
// on the server's clock; Terraform's S3 lockfile and a plain `lock` body unknown, saying what would settle them.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireS3Lock, S3LockStore } from '@/lib/lock/stores/s3';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { verdictOf } from '@/lib/lock/verdict/verdict';
import { delay } from '../helpers/requests';
import { startS3, type S3Target } from '../helpers/s3';

let s: S3Target;
beforeAll(async () => {
  s = await startS3(['tf-state']);
});
afterAll(() => s.close());

const store = () => judgedStore(new S3LockStore({ client: s.client, bucket: 'tf-state' }));
const judge = async (name: string) => {
  const view = await store().inspect(name);
  return view ? { ...verdictOf(view)!, health: view.health } : undefined;
};

describe('S3 lock objects judged by their formats’ rules', () => {
  it('judges Lockboard’s S3 lock alive while held, expired (never gone) once it stops and its TTL runs out on the server’s clock', async () => {
    const held = await acquireS3Lock({
      client: s.client,
      bucket: 'tf-state',
      name: 'jobs/nightly',
      identity: 'cron-1',
      ttlMs: 5_000,
    });
    const v = (await judge('jobs/nightly'))!;
    expect(v.verdict).toBe('alive');
    expect(v.sentence).toMatch(/^Alive: its holder wrote it \d+ s ago \(it refreshes every \d+ s\)\.$/);
    expect(v.evidence[0]!.from).toBe("the object's write times and Lockboard lock fields");
    // its holder freezes (as a SIGSTOPped process would): no refresh, no release
    (held as unknown as { stop(): void }).stop();
    let expired: Awaited<ReturnType<typeof judge>>;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await delay(200)) {
      expired = await judge('jobs/nightly');
      if (expired?.health === 'expired') break;
    }
    // its TTL ran out by the format's rule: a contender takes it over; a frozen holder is not proven gone
    expect([expired!.health, expired!.verdict]).toEqual(['expired', 'unknown']);
    expect(expired!.sentence).toMatch(
      /^Unknown: its last write was \d+ s ago, \d+ s past Lockboard lock’s own expiry: by that rule a contender takes it over; that expires the lock, but nothing read shows whether its holder still runs\.$/,
    );
  });

  it('says Terraform’s S3 lockfile and a plain lock body have no heartbeat', async () => {
    await s.client.send(
      new PutObjectCommand({
        Bucket: 'tf-state',
        Key: 'envs/prod/terraform.tfstate.tflock',
        Body: JSON.stringify({
          ID: '0d8c5e4a-1b2c',
          Operation: 'OperationTypeApply',
          Info: '',
          Who: 'alice@ci-7',
          Version: '1.11.4',
          Created: '2026-11-23T10:00:00.123456789Z',
          Path: 'tf-state/envs/prod/terraform.tfstate',
        }),
        IfNoneMatch: '*',
        ContentType: 'application/json',
      }),
    );
    const tf = (await judge('envs/prod/terraform.tfstate.tflock'))!;
    expect(tf.verdict).toBe('unknown');
    expect(tf.sentence).toBe(
      'Unknown: Terraform writes no heartbeat: only Who (alice@ci-7) is known; whether its run still goes on would settle it.',
    );
    await s.client.send(
      new PutObjectCommand({ Bucket: 'tf-state', Key: 'jobs/remote.lock', Body: 'lock', IfNoneMatch: '*' }),
    );
    expect((await judge('jobs/remote.lock'))!.sentence).toBe(
      'Unknown: a plain lock object has no heartbeat and no expiry and names no owner: only whoever created it can settle it.',
    );
  });
});
