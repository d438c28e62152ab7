// Terraform's migration window (use_lockfile with dynamodb_table): one LockInfo held as an S3 .tflock and a DynamoDB
// item is one logical lock. The lock page of either shows the other; releasing one releases both, each with its own
// store's condition; a pair whose other half changed since keeps that half.
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockInfo } from '@/lib/lock';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';
import { startS3, type S3Target } from '../helpers/s3';

const OPERATOR = 'ops@example.com';
const KEY = 'envs/prod/terraform.tfstate';
let d: TestDynamo;
let s3: S3Target;
let routes: Routes;
const info = (id: string) =>
  JSON.stringify({
    ID: id,
    Operation: 'OperationTypeApply',
    Info: '',
    Who: 'ci@runner',
    Version: '1.11.4',
    Created: new Date().toISOString(),
    Path: `tf-state/${KEY}`,
  });
const hold = async (id: string) => {
  await s3.client.send(new PutObjectCommand({ Bucket: 'tf-state', Key: `${KEY}.tflock`, Body: info(id) }));
  await d.put('tf-locks', { LockID: { S: `tf-state/${KEY}` }, Info: { S: info(id) } });
};
const tflockExists = () =>
  s3.client.send(new GetObjectCommand({ Bucket: 'tf-state', Key: `${KEY}.tflock` })).then(
    () => true,
    () => false,
  );
type View = LockInfo & { version: string };
const page = async () =>
  (
    await call(
      routes.lock.GET,
      `/api/locks/tf-state/${KEY}?bucket=dynamodb%3A%2F%2Ftf-locks`,
      { as: OPERATOR },
      { name: `tf-state/${KEY}`.split('/') },
    )
  ).json as unknown as View;

beforeAll(async () => {
  d = await startDynamo();
  s3 = await startS3(['tf-state']);
  await d.table('tf-locks', 'LockID');
  await d.table('lockboard-audit', 'lock', 'id');
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: 's3://tf-state/,dynamodb://tf-locks',
    AWS_ENDPOINT_URL_S3: s3.url,
    AWS_ENDPOINT_URL_DYNAMODB: d.url,
    AWS_REGION: 'us-east-1',
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 60_000);
afterAll(async () => {
  await d?.stop();
  await s3?.close();
});

describe('a Terraform lock held in S3 and DynamoDB at once', () => {
  it('shows the other half on the lock page and releases both, each with its own condition', async () => {
    await hold('4f1c2b9e-0000-4000-8000-000000000001');
    const seen = await page();
    expect(seen.details.find(([k]) => k === 'Also held in')?.[1]).toMatch(
      /^s3:\/\/tf-state\/ envs\/prod\/terraform\.tfstate\.tflock/,
    );
    const r = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { source: 'dynamodb://tf-locks', name: seen.name, version: seen.version, reason: 'apply killed' },
    });
    expect(r.status).toBe(200);
    expect(r.json.pairs).toEqual([{ source: 's3://tf-state/', name: `${KEY}.tflock`, outcome: 'released' }]);
    expect(await tflockExists()).toBe(false);
    expect(
      await d.client
        .send(
          new (await import('@aws-sdk/client-dynamodb')).GetItemCommand({
            TableName: 'tf-locks',
            Key: { LockID: { S: `tf-state/${KEY}` } },
          }),
        )
        .then((o) => o.Item),
    ).toBeUndefined();
  });

  it('keeps the other half when it changed since it was listed (a new apply took it)', async () => {
    await hold('4f1c2b9e-0000-4000-8000-000000000002');
    const seen = await page(); // lists both halves (the S3 one now cached at this version)
    await s3.client.send(
      new PutObjectCommand({
        Bucket: 'tf-state',
        Key: `${KEY}.tflock`,
        Body: info('4f1c2b9e-0000-4000-8000-000000000003'),
      }),
    );
    const r = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { source: 'dynamodb://tf-locks', name: seen.name, version: seen.version, reason: 'apply killed' },
    });
    expect(r.status).toBe(200);
    // the half listed at the old version is refused (changed); a listing read after the change no longer pairs them
    expect((r.json.pairs ?? []) as { outcome: string }[]).not.toContainEqual(
      expect.objectContaining({ outcome: 'released' }),
    );
    expect(await tflockExists()).toBe(true);
  });
});
