// The XML API reads Google's Go client makes (cloud.google.com/go/storage: Terraform's gcs backend, Vault, certmagic,
// gmutex), replayed request by request as that client sends them: GET or HEAD /BUCKET/OBJECT on the JSON endpoint's
// host with "/" in the name sent as %2F, ?generation= on a reopen, Range, and x-goog-if-*-match headers.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32cBase64 } from '@/lib/emulator/objects/crc32c';
import { startTestEmulator, type Target } from '../helpers/gcs';

let t: Target;
let generation: string;
const BODY = Buffer.from('{"version":4,"terraform_version":"1.11.4","serial":3,"resources":[]}\n');
const NAME = 'prod/default.tfstate';
const GO_HEADERS = { 'user-agent': 'gcloud-golang-storage/1.30.1', 'x-goog-api-client': 'gl-go/1.23 gccl/1.30.1' };

beforeAll(async () => {
  t = await startTestEmulator({ buckets: ['tf-state'] });
  const file = t.storage.bucket('tf-state').file(NAME);
  await file.save(BODY, {
    resumable: false,
    contentType: 'application/json',
    metadata: { metadata: { owner: 'ann' } },
    preconditionOpts: { ifGenerationMatch: 0 },
  });
  generation = String((await file.getMetadata())[0].generation);
});
afterAll(() => t.close());

const read = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${t.emulator!.url}${path}`, { ...init, headers: { ...GO_HEADERS, ...init.headers } });

describe('XML API reads (Go client)', () => {
  it('serves GET /BUCKET/OBJECT with %2F and every header the Go client reads', async () => {
    const res = await read('/tf-state/prod%2Fdefault.tfstate', { headers: { authorization: 'Bearer anything' } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(BODY);
    const h = res.headers;
    expect(h.get('x-goog-generation')).toBe(generation);
    expect(h.get('x-goog-metageneration')).toBe('1');
    const md5 = createHash('md5').update(BODY).digest('base64');
    expect(h.get('x-goog-hash')).toBe(`crc32c=${crc32cBase64(BODY)},md5=${md5}`);
    expect(h.get('x-goog-stored-content-length')).toBe(String(BODY.length));
    expect(h.get('content-length')).toBe(String(BODY.length));
    expect(h.get('content-type')).toBe('application/json');
    expect(h.get('x-goog-meta-owner')).toBe('ann');
    // Go parses Last-Modified with http.ParseTime: RFC 1123 in GMT
    expect(h.get('last-modified')).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(h.get('etag')).toBe(`"${createHash('md5').update(BODY).digest('hex')}"`);
  });

  it('answers HEAD with the headers and no body, and the virtual-hosted and storage.googleapis.com path forms', async () => {
    const head = await read(`/tf-state/${encodeURIComponent(NAME)}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(BODY.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const proxied = await read(`/storage.googleapis.com/tf-state/${encodeURIComponent(NAME)}`);
    expect(Buffer.from(await proxied.arrayBuffer())).toEqual(BODY);
    // Host: BUCKET.storage.googleapis.com (node's fetch forbids Host, so a raw request)
    const { request } = await import('node:http');
    const virtual = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(t.emulator!.url);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: `/${encodeURIComponent(NAME)}`,
          headers: { host: 'tf-state.storage.googleapis.com' },
        },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(virtual).toEqual({ status: 200, body: BODY.toString() });
  });

  it('serves Range requests with 206 and Content-Range, and 416 beyond the end', async () => {
    const cases: [string, number, string, Buffer][] = [
      ['bytes=0-9', 206, `bytes 0-9/${BODY.length}`, BODY.subarray(0, 10)],
      ['bytes=10-', 206, `bytes 10-${BODY.length - 1}/${BODY.length}`, BODY.subarray(10)],
      ['bytes=-5', 206, `bytes ${BODY.length - 5}-${BODY.length - 1}/${BODY.length}`, BODY.subarray(-5)],
    ];
    for (const [range, status, contentRange, body] of cases) {
      const res = await read(`/tf-state/${encodeURIComponent(NAME)}`, { headers: { range } });
      expect(res.status, range).toBe(status);
      expect(res.headers.get('content-range'), range).toBe(contentRange);
      expect(Buffer.from(await res.arrayBuffer()), range).toEqual(body);
    }
    const beyond = await read(`/tf-state/${encodeURIComponent(NAME)}`, { headers: { range: 'bytes=9999-' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${BODY.length}`);
    expect(await beyond.text()).toContain('<Code>InvalidRange</Code>');
  });

  it('honours ?generation= and the x-goog-if-generation-match / x-goog-if-metageneration-match headers', async () => {
    const path = `/tf-state/${encodeURIComponent(NAME)}`;
    expect((await read(`${path}?generation=${generation}`)).status).toBe(200);
    const old = await read(`${path}?generation=1`);
    expect(old.status).toBe(404);
    expect(await old.text()).toContain('<Code>NoSuchKey</Code>');
    expect((await read(path, { headers: { 'x-goog-if-generation-match': generation } })).status).toBe(200);
    const stale = await read(path, { headers: { 'x-goog-if-generation-match': '1' } });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('content-type')).toMatch(/application\/xml/);
    expect(await stale.text()).toMatch(/<Error><Code>PreconditionFailed<\/Code><Message>At least one/);
    expect((await read(path, { headers: { 'x-goog-if-metageneration-match': '2' } })).status).toBe(412);
    expect((await read(path, { headers: { 'x-goog-if-metageneration-match': '1' } })).status).toBe(200);
    const garbage = await read(`${path}?generation=abc`);
    expect(garbage.status).toBe(400);
    expect(await garbage.text()).toContain('<Code>InvalidArgument</Code>');
  });

  it('answers missing objects and buckets with XML NoSuchKey / NoSuchBucket, and logs and faults the routes', async () => {
    const missing = await read('/tf-state/prod%2Fnothing.tfstate');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe(
      "<?xml version='1.0' encoding='UTF-8'?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Details>No such object: tf-state/prod%2Fnothing.tfstate</Details></Error>",
    );
    const noBucket = await read('/no-such-bucket/x');
    expect(noBucket.status).toBe(404);
    expect(await noBucket.text()).toContain('<Code>NoSuchBucket</Code>');
    expect(
      t.emulator!.requests.entries.some((r) => r.method === 'GET' && r.path === '/tf-state/prod%2Fnothing.tfstate'),
    ).toBe(true);
    t.emulator!.faults.set({
      rules: [{ method: 'GET', path: '^/tf-state/', errorRate: 1, errorStatus: 503, times: 1 }],
    });
    const faulted = await read(`/tf-state/${encodeURIComponent(NAME)}`);
    expect(faulted.status).toBe(503);
    expect(await faulted.text()).toContain('<Code>ServiceUnavailable</Code>');
    expect((await read(`/tf-state/${encodeURIComponent(NAME)}`)).status).toBe(200);
    t.emulator!.faults.clear();
  });

  it('leaves the JSON API routes as they were', async () => {
    const res = await read('/storage/v1/b/tf-state/o/prod%2Fdefault.tfstate');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe(NAME);
    expect((await read('/storage/v1/b/tf-state/o/nothing')).headers.get('content-type')).toMatch(/json/);
  });
});
