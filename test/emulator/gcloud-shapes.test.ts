// The request shapes Google's `gcloud storage` (528, Python apitools) sends, byte for byte as captured from it, sent
// over HTTP to the emulator and checked through the official Node client: gcloud works against the emulator even
// where gcloud is not installed (CI). `npm run test:interop` drives the real gcloud where it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type Target } from '../helpers/gcs';

let t: Target;
let base = '';
beforeAll(async () => {
  t = await startTestEmulator();
  base = t.emulator!.url;
});
afterAll(async () => {
  await t.close();
});

const file = (name: string) => t.storage.bucket(t.bucket).file(name);

/** gcloud's multipart upload: boundary in single quotes, bare LF line breaks, the name in the metadata part. */
function gcloudMultipart(name: string, content: string, contentType = 'text/plain') {
  const boundary = '===============5959149349801487360==';
  const body =
    `--${boundary}\nContent-Type: application/json\nMIME-Version: 1.0\n\n` +
    JSON.stringify({ bucket: t.bucket, contentType, name }) +
    `\n--${boundary}\nContent-Type: ${contentType}\nMIME-Version: 1.0\nContent-Transfer-Encoding: binary\n\n` +
    `${content}\n--${boundary}--\n`;
  return { body, contentType: `multipart/related; boundary='${boundary}'` };
}

describe('gcloud storage request shapes', () => {
  it('cp (small file): a multipart upload with a single-quoted boundary, LF line breaks and no ?name=', async () => {
    const { body, contentType } = gcloudMultipart('locks/h', 'hello\n');
    const res = await fetch(`${base}/upload/storage/v1/b/${t.bucket}/o?alt=json&uploadType=multipart`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
    expect(res.status).toBe(200);
    const [data] = await file('locks/h').download();
    expect(data.toString()).toBe('hello\n');
    const [meta] = await file('locks/h').getMetadata();
    expect(meta.contentType).toBe('text/plain');
  });

  it('cp (large file): a resumable upload started at /resumable/upload/..., then the data PUT to the session', async () => {
    const data = Buffer.alloc(3 * 1024 * 1024, 7);
    const start = await fetch(`${base}/resumable/upload/storage/v1/b/${t.bucket}/o?alt=json&uploadType=resumable`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-upload-content-type': 'application/octet-stream' },
      body: JSON.stringify({ bucket: t.bucket, name: 'big.bin' }),
    });
    expect(start.status).toBe(200);
    const session = start.headers.get('location')!;
    const put = await fetch(session, {
      method: 'PUT',
      headers: { 'content-range': `bytes 0-${data.length - 1}/${data.length}` },
      body: data,
    });
    expect(put.status).toBe(200);
    const [back] = await file('big.bin').download();
    expect(back.equals(data)).toBe(true);
  });

  it('cat: a download from /download/storage/v1/... with the generation', async () => {
    const [meta] = await file('locks/h').getMetadata();
    const res = await fetch(
      `${base}/download/storage/v1/b/${t.bucket}/o/locks%2Fh?generation=${meta.generation}&alt=media`,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello\n');
  });

  it('ls: delimiter, includeFoldersAsPrefixes and a fields projection naming several item fields', async () => {
    const fields = 'prefixes,items/name,items/size,items/generation,nextPageToken';
    const list = async (prefix: string) =>
      (await (
        await fetch(
          `${base}/storage/v1/b/${t.bucket}/o?alt=json&fields=${encodeURIComponent(fields)}&delimiter=%2F` +
            `&includeFoldersAsPrefixes=True&maxResults=1000&prefix=${encodeURIComponent(prefix)}&projection=noAcl`,
        )
      ).json()) as { items?: Record<string, unknown>[]; prefixes?: string[] };
    expect(await list('locks')).toEqual({ prefixes: ['locks/'] });
    const inside = await list('locks/');
    expect(inside.items).toHaveLength(1);
    // every field asked for, and only those
    expect(Object.keys(inside.items![0]!).sort()).toEqual(['generation', 'name', 'size']);
  });

  it('objects update --custom-metadata with --if-metageneration-match, and --temporary-hold', async () => {
    const patch = (body: unknown, query = '') =>
      fetch(`${base}/storage/v1/b/${t.bucket}/o/locks%2Fh?alt=json${query}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await patch({ metadata: { owner: 'ann' } }, '&ifMetagenerationMatch=1')).status).toBe(200);
    expect((await patch({ metadata: { owner: 'bob' } }, '&ifMetagenerationMatch=1')).status).toBe(412);
    expect((await patch({ temporaryHold: true })).status).toBe(200);
    const held = await fetch(`${base}/storage/v1/b/${t.bucket}/o/locks%2Fh`, { method: 'DELETE' });
    expect(held.status).toBe(403);
    expect(await held.text()).toMatch(/under active Temporary hold/);
    expect((await patch({ temporaryHold: false })).status).toBe(200);
    const [meta] = await file('locks/h').getMetadata();
    expect(meta.metadata).toEqual({ owner: 'ann' });
    expect(meta.metageneration).toBe('4');
  });

  it('rm with --if-generation-match of an old generation deletes nothing; plain rm deletes', async () => {
    const del = (query = '') =>
      fetch(`${base}/storage/v1/b/${t.bucket}/o/locks%2Fh?alt=json${query}`, { method: 'DELETE' });
    expect((await del('&ifGenerationMatch=1')).status).toBe(412);
    expect((await file('locks/h').exists())[0]).toBe(true);
    expect((await del()).status).toBe(204);
    expect((await file('locks/h').exists())[0]).toBe(false);
  });

  it('refuses a multipart body without a media part with a clear 400', async () => {
    const res = await fetch(`${base}/upload/storage/v1/b/${t.bucket}/o?uploadType=multipart`, {
      method: 'POST',
      headers: { 'content-type': "multipart/related; boundary='x'" },
      body: '--x\nContent-Type: application/json\n\n{"name":"a"}\n--x--\n',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/must have a metadata part and a media part/);
  });
});
