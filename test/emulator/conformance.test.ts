// Conformance of the GCS subset Lockboard uses, through the official client. Runs against a real bucket when
// LOCKBOARD_TEST_BUCKET is set (see README), so the emulator can be checked against the real service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectGcsError, startConformanceTarget, type Target } from '../helpers/gcs';

let t: Target;
beforeAll(async () => {
  t = await startConformanceTarget();
});
afterAll(async () => {
  await t.close();
});

const file = (name: string) => t.storage.bucket(t.bucket).file(t.prefix + name);
const create = (name: string, body = '{}', metadata: Record<string, string> = {}) =>
  file(name).save(body, {
    resumable: false,
    metadata: { contentType: 'application/json', cacheControl: 'no-store', metadata },
    preconditionOpts: { ifGenerationMatch: 0 },
  });

describe('objects', () => {
  it('creates an object with ifGenerationMatch=0 and returns the resource GCS returns', async () => {
    await create('a', '{"x":1}', { identity: 'me' });
    const [md] = await file('a').getMetadata();
    expect(md.name).toBe(t.prefix + 'a');
    expect(typeof md.generation).toBe('string');
    expect(md.metageneration).toBe('1');
    expect(md.size).toBe('7');
    expect(md.contentType).toBe('application/json');
    expect(md.cacheControl).toBe('no-store');
    expect(md.metadata).toEqual({ identity: 'me' });
    expect(md.crc32c).toBe('vaPQhA==');
    expect(md.md5Hash).toBe('rD70jKoI+j7V4CXaae3GRQ==');
    expect(Date.parse(String(md.timeCreated))).toBeGreaterThan(0);
    expect(md.updated).toBe(md.timeCreated);
  });

  it('refuses a second create with ifGenerationMatch=0 with 412', async () => {
    await create('dup');
    await expectGcsError(create('dup'), 412);
  });

  it('gives every new version a larger generation', async () => {
    await create('gen');
    const [first] = await file('gen').getMetadata();
    await file('gen').save('{}', {
      resumable: false,
      preconditionOpts: { ifGenerationMatch: Number(first.generation) },
    });
    const [second] = await file('gen').getMetadata();
    expect(BigInt(String(second.generation))).toBeGreaterThan(BigInt(String(first.generation)));
    expect(second.metageneration).toBe('1');
  });

  it('replaces exactly the version named by ifGenerationMatch and ifMetagenerationMatch', async () => {
    await create('over');
    const [md] = await file('over').getMetadata();
    await file('over').setMetadata(
      { metadata: { a: '1' } },
      { ifGenerationMatch: md.generation, ifMetagenerationMatch: 1 },
    );
    const pre = { ifGenerationMatch: Number(md.generation), ifMetagenerationMatch: 1 };
    await expectGcsError(file('over').save('{}', { resumable: false, preconditionOpts: pre }), 412);
    await file('over').save('{}', { resumable: false, preconditionOpts: { ...pre, ifMetagenerationMatch: 2 } });
  });

  it('patches custom metadata: merges keys, removes null keys, raises metageneration', async () => {
    await create('patch', '{}', { identity: 'me', purpose: 'x' });
    const [md] = await file('patch').getMetadata();
    const [patched] = await file('patch').setMetadata(
      { metadata: { expires_at: '123', purpose: null } },
      { ifGenerationMatch: md.generation, ifMetagenerationMatch: md.metageneration },
    );
    expect(patched.metadata).toEqual({ identity: 'me', expires_at: '123' });
    expect(patched.metageneration).toBe('2');
    expect(patched.generation).toBe(md.generation);
    expect(Date.parse(String(patched.updated))).toBeGreaterThanOrEqual(Date.parse(String(md.updated)));
  });

  it('refuses a PATCH whose generation or metageneration precondition fails with 412', async () => {
    await create('patch412');
    const [md] = await file('patch412').getMetadata();
    await expectGcsError(
      file('patch412').setMetadata({ metadata: { a: '1' } }, { ifGenerationMatch: 1, ifMetagenerationMatch: 1 }),
      412,
    );
    await expectGcsError(
      file('patch412').setMetadata(
        { metadata: { a: '1' } },
        { ifGenerationMatch: md.generation, ifMetagenerationMatch: 7 },
      ),
      412,
    );
  });

  it('deletes with preconditions: 412 on a stale generation, 204 on a match, 404 afterwards', async () => {
    await create('del');
    const [md] = await file('del').getMetadata();
    await expectGcsError(file('del').delete({ ifGenerationMatch: 1 }), 412);
    await file('del').delete({ ifGenerationMatch: md.generation, ifMetagenerationMatch: md.metageneration });
    await expectGcsError(file('del').getMetadata(), 404);
    await expectGcsError(file('del').delete(), 404);
  });

  it('downloads the media of an object', async () => {
    await create('media', '{"hello":"world"}');
    const [buf] = await file('media').download();
    expect(buf.toString()).toBe('{"hello":"world"}');
  });

  it('accepts a resumable upload in one request and in several chunks', async () => {
    const big = Buffer.alloc(600 * 1024, 7);
    await file('resumable').save(big, {
      resumable: true,
      chunkSize: 256 * 1024,
      preconditionOpts: { ifGenerationMatch: 0 },
    });
    const [md] = await file('resumable').getMetadata();
    expect(md.size).toBe(String(big.length));
    const [back] = await file('resumable').download();
    expect(back.equals(big)).toBe(true);
  });

  it('answers 404 for an absent object and an unknown bucket', async () => {
    await expectGcsError(file('nope').getMetadata(), 404);
    await expectGcsError(t.storage.bucket('no-such-bucket-lockboard').file('x').getMetadata(), 404);
  });
});

describe('listing', () => {
  it('lists under a prefix in name order with pages and a delimiter', async () => {
    for (const n of ['l/b', 'l/a', 'l/c', 'l/sub/x', 'l/sub/y', 'm/z']) await create(n);
    const bucket = t.storage.bucket(t.bucket);
    const [all] = await bucket.getFiles({ prefix: t.prefix + 'l/' });
    expect(all.map((f) => f.name.slice(t.prefix.length))).toEqual(['l/a', 'l/b', 'l/c', 'l/sub/x', 'l/sub/y']);

    const [page1, next] = await bucket.getFiles({ prefix: t.prefix + 'l/', autoPaginate: false, maxResults: 2 });
    expect(page1.map((f) => f.name.slice(t.prefix.length))).toEqual(['l/a', 'l/b']);
    expect(next).toBeTruthy();
    const [page2] = await bucket.getFiles({ ...next!, autoPaginate: false });
    expect(page2.map((f) => f.name.slice(t.prefix.length))).toEqual(['l/c', 'l/sub/x']);

    const [, , resp] = await bucket.getFiles({ prefix: t.prefix + 'l/', delimiter: '/', autoPaginate: false });
    const body = resp as { items?: { name: string }[]; prefixes?: string[] };
    expect(body.items?.map((i) => i.name.slice(t.prefix.length))).toEqual(['l/a', 'l/b', 'l/c']);
    expect(body.prefixes).toEqual([t.prefix + 'l/sub/']);
  });

  it('honours startOffset and endOffset', async () => {
    for (const n of ['o/1', 'o/2', 'o/3', 'o/4']) await create(n);
    const [files] = await t.storage
      .bucket(t.bucket)
      .getFiles({ prefix: t.prefix + 'o/', startOffset: t.prefix + 'o/2', endOffset: t.prefix + 'o/4' });
    expect(files.map((f) => f.name.slice(t.prefix.length))).toEqual(['o/2', 'o/3']);
  });

  it('returns an empty page for a prefix with no objects', async () => {
    const [files, next] = await t.storage
      .bucket(t.bucket)
      .getFiles({ prefix: t.prefix + 'empty/', autoPaginate: false });
    expect(files).toEqual([]);
    expect(next).toBeNull();
  });

  it('projects fields when asked', async () => {
    await create('f/1', '{}', { identity: 'x' });
    const [, , resp] = await t.storage.bucket(t.bucket).getFiles({
      prefix: t.prefix + 'f/',
      autoPaginate: false,
      fields: 'items(name,generation,metadata),nextPageToken',
    });
    const item = (resp as { items: Record<string, unknown>[] }).items[0]!;
    expect(Object.keys(item).sort()).toEqual(['generation', 'metadata', 'name']);
  });
});
