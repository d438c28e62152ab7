// The locks page's first paint (listForConsole with firstScreen): a few hundred rows per source, metadata first,
// marked partial. An S3 prefix whose keys sort 1 500 data objects before its first lock (Terraform state under
// `state/`) still paints locks: the first screen lists on past data, up to a bound.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { SECRET } from '../helpers/routes';
import { s3ClientFor } from '../helpers/s3';

let emulator: Emulator;

const tflock = (i: number) => JSON.stringify({ ID: `id-${i}`, Operation: 'OperationTypeApply', Who: `u${i}@ci` });

beforeAll(async () => {
  emulator = await startEmulator({ s3: { buckets: ['deep', 'empty-ish'] } });
  const now = Date.now();
  const put = (bucket: string, key: string, body: string) =>
    emulator.s3!.store.put(bucket, key, Buffer.from(body), { contentType: 'application/json', metadata: {} }, {}, now);
  for (let i = 0; i < 1500; i++) put('deep', `a/state/${String(i).padStart(5, '0')}.tfstate`, '{"version":4}');
  for (let i = 0; i < 1000; i++) put('deep', `a/tf/${String(i).padStart(5, '0')}/terraform.tfstate.tflock`, tflock(i));
  for (let i = 0; i < 6000; i++) put('empty-ish', `a/${String(i).padStart(5, '0')}.tfstate`, '{"version":4}');
  await s3ClientFor(emulator.s3!.url).send(
    new PutObjectCommand({ Bucket: 'empty-ish', Key: 'a/zz.tflock', Body: tflock(1) }),
  );
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: 's3://deep/a/,s3://empty-ish/a/',
    AWS_ENDPOINT_URL_S3: emulator.s3!.url,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_REGION: 'us-east-1',
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
});

afterAll(async () => {
  await emulator.close();
});

describe('the first screen', () => {
  it('lists past data objects until it has locks to paint, and says the rest follows', async () => {
    const { listForConsole } = await import('@/lib/server/locks');
    const { sources } = await import('@/lib/server/sources');
    const deep = sources().find((s) => s.id === 's3://deep/a/')!;
    const first = await listForConsole({ id: deep.id, sources: [deep] }, { progressive: true, firstScreen: true });
    expect(first.locks.length).toBeGreaterThanOrEqual(200);
    expect(first.locks.every((l) => l.name.endsWith('.tflock'))).toBe(true);
    expect(first.skipped).toBe(1500);
    expect(first.partial).toBe(true);
    const complete = await listForConsole({ id: deep.id, sources: [deep] });
    expect(complete.locks).toHaveLength(1000);
    expect(complete.partial).toBeUndefined();
  });

  it('stops at its bound on a prefix of data, without claiming there are no locks', async () => {
    const { listForConsole } = await import('@/lib/server/locks');
    const { sources } = await import('@/lib/server/sources');
    const source = sources().find((s) => s.id === 's3://empty-ish/a/')!;
    const first = await listForConsole({ id: source.id, sources: [source] }, { progressive: true, firstScreen: true });
    expect(first.locks).toHaveLength(0);
    expect(first.skipped).toBeGreaterThanOrEqual(5000);
    expect(first.skipped).toBeLessThan(6000);
    expect(first.partial).toBe(true); // the page says the rest is on its way, not "no locks"
    const complete = await listForConsole({ id: source.id, sources: [source] });
    expect(complete.locks.map((l) => l.name)).toEqual(['a/zz.tflock']);
  });
});
