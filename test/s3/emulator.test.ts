// The emulator's S3 routes through the official AWS SDK v3 client over HTTP: S3's conditional writes and deletes with
// the status codes of facts-s3.md §1.2, ETag = MD5 of the body, x-amz-meta-*, ListObjectsV2 with continuation, XML
// errors, faults, the request log and persistence.
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '@/lib/emulator';
import { s3ClientFor, startS3, type S3Target } from '../helpers/s3';

let s: S3Target;
beforeAll(async () => {
  s = await startS3(['locks']);
});
afterAll(() => s.close());

const put = (Key: string, Body: string, extra: Record<string, unknown> = {}) =>
  s.client.send(new PutObjectCommand({ Bucket: 'locks', Key, Body, ...extra }));
const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    const e = err as { name: string; $metadata: { httpStatusCode: number } };
    return [e.$metadata.httpStatusCode, e.name] as const;
  }
  throw new Error('expected the request to fail');
};

describe('S3 emulator (AWS SDK v3)', () => {
  it('creates with If-None-Match: * once (412 PreconditionFailed after), ETag = quoted MD5 of the body', async () => {
    const out = await put('a/lock', 'hello', { IfNoneMatch: '*' });
    expect(out.ETag).toBe(`"${createHash('md5').update('hello').digest('hex')}"`);
    expect(await failure(put('a/lock', 'other', { IfNoneMatch: '*' }))).toEqual([412, 'PreconditionFailed']);
    // identical bytes, identical ETag: as on S3 (so lock writes must carry a nonce)
    expect((await put('a/same', 'hello')).ETag).toBe(out.ETag);
  });

  it('overwrites with If-Match only on the current ETag; 404 NoSuchKey when the key is absent', async () => {
    const first = await put('b/lock', 'v1');
    const second = await put('b/lock', 'v2', { IfMatch: first.ETag });
    expect(await failure(put('b/lock', 'v3', { IfMatch: first.ETag }))).toEqual([412, 'PreconditionFailed']);
    expect(await failure(put('b/missing', 'v1', { IfMatch: second.ETag }))).toEqual([404, 'NoSuchKey']);
    // the ETag is accepted quoted or bare
    await put('b/lock', 'v3', { IfMatch: second.ETag!.replace(/"/g, '') });
  });

  it('deletes with If-Match on a match only: 412 on another ETag, 404 NoSuchKey when gone, 204 unconditionally', async () => {
    const v1 = await put('c/lock', 'v1');
    await put('c/lock', 'v2');
    expect(
      await failure(s.client.send(new DeleteObjectCommand({ Bucket: 'locks', Key: 'c/lock', IfMatch: v1.ETag }))),
    ).toEqual([412, 'PreconditionFailed']);
    const v2 = await s.client.send(new HeadObjectCommand({ Bucket: 'locks', Key: 'c/lock' }));
    await s.client.send(new DeleteObjectCommand({ Bucket: 'locks', Key: 'c/lock', IfMatch: v2.ETag }));
    expect(
      await failure(s.client.send(new DeleteObjectCommand({ Bucket: 'locks', Key: 'c/lock', IfMatch: v2.ETag }))),
    ).toEqual([404, 'NoSuchKey']);
    await s.client.send(new DeleteObjectCommand({ Bucket: 'locks', Key: 'c/lock' })); // idempotent
  });

  it('round-trips x-amz-meta-*, Content-Type and Last-Modified; HEAD and GET of a missing key are 404', async () => {
    await put('d/obj', '{"x":1}', { Metadata: { Owner: 'ann', purpose: 'deploy' }, ContentType: 'application/json' });
    const got = await s.client.send(new GetObjectCommand({ Bucket: 'locks', Key: 'd/obj' }));
    expect(got.Metadata).toEqual({ owner: 'ann', purpose: 'deploy' });
    expect(got.ContentType).toBe('application/json');
    expect(await got.Body!.transformToString()).toBe('{"x":1}');
    expect(Math.abs(got.LastModified!.getTime() - Date.now())).toBeLessThan(5_000);
    expect((await failure(s.client.send(new HeadObjectCommand({ Bucket: 'locks', Key: 'd/none' }))))[0]).toBe(404);
    expect(await failure(s.client.send(new GetObjectCommand({ Bucket: 'locks', Key: 'd/none' })))).toEqual([
      404,
      'NoSuchKey',
    ]);
    expect(await failure(s.client.send(new GetObjectCommand({ Bucket: 'no-such', Key: 'x' })))).toEqual([
      404,
      'NoSuchBucket',
    ]);
  });

  it('lists with ListObjectsV2 in pages of MaxKeys, with continuation tokens, and no metadata', async () => {
    for (let i = 0; i < 25; i++) await put(`list/k${String(i).padStart(2, '0')}`, `v${i}`);
    const keys: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await s.client.send(
        new ListObjectsV2Command({ Bucket: 'locks', Prefix: 'list/', MaxKeys: 10, ContinuationToken: token }),
      );
      keys.push(...(page.Contents ?? []).map((c) => c.Key!));
      expect(page.Contents?.[0]?.ETag).toMatch(/^"[0-9a-f]{32}"$/);
      token = page.NextContinuationToken;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(keys).toHaveLength(25);
    expect(keys[0]).toBe('list/k00');
    const folders = await s.client.send(new ListObjectsV2Command({ Bucket: 'locks', Delimiter: '/' }));
    expect(folders.CommonPrefixes?.map((p) => p.Prefix)).toContain('list/');
  });

  it('answers 409 ConditionalRequestConflict to a conditional write that another write overtook', async () => {
    await put('e/race', 'v0');
    const current = await s.client.send(new HeadObjectCommand({ Bucket: 'locks', Key: 'e/race' }));
    // a slow conditional PUT (latency before the body is applied), overtaken by a fast write to the same key
    s.emulator.s3!.faults.set({ rules: [{ method: 'PUT', path: '^/locks/e/race$', latencyMs: [300, 300], times: 1 }] });
    const slow = failure(put('e/race', 'slow', { IfMatch: current.ETag }));
    await new Promise((r) => setTimeout(r, 50));
    s.emulator.s3!.faults.clear();
    await put('e/race', 'fast');
    expect(await slow).toEqual([409, 'ConditionalRequestConflict']);
  });

  it('injects faults as S3 errors and logs every request', async () => {
    s.emulator.s3!.faults.set({
      rules: [{ method: 'GET', path: '^/locks/f/', errorRate: 1, errorStatus: 503, times: 1 }],
    });
    await put('f/x', 'x');
    expect(await failure(s.client.send(new GetObjectCommand({ Bucket: 'locks', Key: 'f/x' })))).toEqual([
      503,
      'SlowDown',
    ]);
    await s.client.send(new GetObjectCommand({ Bucket: 'locks', Key: 'f/x' }));
    const log = s.emulator.s3!.requests.entries.filter((e) => e.path === '/locks/f/x');
    expect(log.map((e) => [e.method, e.status, e.fault])).toEqual([
      ['PUT', 200, undefined],
      ['GET', 503, 'error'],
      ['GET', 200, undefined],
    ]);
  });

  it('keeps its state in --data-dir across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lockboard-s3-'));
    const first = await startEmulator({ dataDir: dir, s3: {} });
    const c1 = s3ClientFor(first.s3!.url);
    await c1.send(new CreateBucketCommand({ Bucket: 'kept' }));
    const written = await c1.send(new PutObjectCommand({ Bucket: 'kept', Key: 'k', Body: 'v', Metadata: { a: 'b' } }));
    await first.close();
    const second = await startEmulator({ dataDir: dir, s3: {} });
    const c2 = s3ClientFor(second.s3!.url);
    const got = await c2.send(new GetObjectCommand({ Bucket: 'kept', Key: 'k' }));
    expect([got.ETag, got.Metadata, await got.Body!.transformToString()]).toEqual([written.ETag, { a: 'b' }, 'v']);
    c1.destroy();
    c2.destroy();
    await second.close();
  });
});
