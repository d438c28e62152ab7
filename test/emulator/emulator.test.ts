// Emulator-only behaviour: versioning, faults, clock offset, write-rate limit, request log, persistence, bad input.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Storage } from '@google-cloud/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { crc32cBase64 } from '@/lib/emulator/objects/crc32c';
import { Faults } from '@/lib/emulator/testing/faults';
import { ObjectStore } from '@/lib/emulator/objects/objects';
import { expectGcsError, startTestEmulator, type Target } from '../helpers/gcs';

let t: Target | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const saveNew = (target: Target, name: string, body = '{}') =>
  target.storage
    .bucket(target.bucket)
    .file(name)
    .save(body, { resumable: false, preconditionOpts: { ifGenerationMatch: 0 } });

describe('checksums', () => {
  it('computes CRC32C as GCS does', () => {
    expect(crc32cBase64(Buffer.alloc(0))).toBe('AAAAAA==');
    // RFC 3720 test vector: 32 bytes of zeros -> 0x8a9136aa
    expect(Buffer.from(crc32cBase64(Buffer.alloc(32)), 'base64').toString('hex')).toBe('8a9136aa');
  });
});

describe('versioning', () => {
  it('keeps overwritten and deleted objects as noncurrent versions readable by generation', async () => {
    t = await startTestEmulator({ buckets: [{ name: 'test-bucket', versioning: true }] });
    const f = t.storage.bucket(t.bucket).file('v');
    await saveNew(t, 'v', 'one');
    const [g1] = await f.getMetadata();
    await f.save('two', { resumable: false, preconditionOpts: { ifGenerationMatch: Number(g1.generation) } });
    const [g2] = await f.getMetadata();
    await f.delete({ ifGenerationMatch: g2.generation });
    const [versions] = await t.storage.bucket(t.bucket).getFiles({ versions: true });
    expect(versions.map((v) => v.metadata.generation)).toEqual([g1.generation, g2.generation]);
    expect(versions.every((v) => typeof v.metadata.timeDeleted === 'string')).toBe(true);
    const [old] = await t.storage
      .bucket(t.bucket)
      .file('v', { generation: Number(g1.generation) })
      .download();
    expect(old.toString()).toBe('one');
    const [live] = await t.storage.bucket(t.bucket).getFiles();
    expect(live).toEqual([]);
  });

  it('switches versioning on through bucket PATCH', async () => {
    t = await startTestEmulator();
    const [md] = await t.storage.bucket(t.bucket).setMetadata({ versioning: { enabled: true } });
    expect(md.versioning).toEqual({ enabled: true });
  });
});

describe('fault injection', () => {
  it('answers an injected 503 and the client retries a conditional create to success', async () => {
    t = await startTestEmulator();
    t.emulator!.faults.set({ rules: [{ method: 'POST', errorRate: 1, errorStatus: 503, times: 1 }] });
    const storage = new Storage({
      apiEndpoint: t.emulator!.url,
      projectId: 'test',
      retryOptions: { maxRetries: 2, retryDelayMultiplier: 1, totalTimeout: 5, maxRetryDelay: 1 },
    });
    await storage
      .bucket(t.bucket)
      .file('x')
      .save('{}', { resumable: false, preconditionOpts: { ifGenerationMatch: 0 } });
    const statuses = t.emulator!.requests.entries.filter((e) => e.method === 'POST').map((e) => e.status);
    expect(statuses).toEqual([503, 200]);
  });

  it('applies a create whose response is dropped, so the client retry surfaces as 412', async () => {
    t = await startTestEmulator();
    t.emulator!.faults.set({ rules: [{ method: 'POST', path: '/upload/', dropResponseRate: 1, times: 1 }] });
    const storage = new Storage({
      apiEndpoint: t.emulator!.url,
      projectId: 'test',
      retryOptions: { maxRetries: 1, retryDelayMultiplier: 1, maxRetryDelay: 1 },
    });
    await expectGcsError(
      storage
        .bucket(t.bucket)
        .file('d')
        .save('{}', { resumable: false, preconditionOpts: { ifGenerationMatch: 0 } }),
      412,
    );
    const [md] = await t.storage.bucket(t.bucket).file('d').getMetadata();
    expect(md.metageneration).toBe('1');
  });

  it('resets the connection before applying the change', async () => {
    t = await startTestEmulator();
    t.emulator!.faults.set({ rules: [{ method: 'POST', resetRate: 1 }] });
    const res = fetch(`${t.emulator!.url}/upload/storage/v1/b/test-bucket/o?uploadType=media&name=r`, {
      method: 'POST',
      body: 'x',
    });
    await expect(res).rejects.toThrow();
    t.emulator!.faults.clear();
    await expectGcsError(t.storage.bucket(t.bucket).file('r').getMetadata(), 404);
  });

  it('adds latency within the configured range and only on matching paths', async () => {
    t = await startTestEmulator({ faults: { rules: [{ path: '/o/slow$', latencyMs: [150, 200] }] } });
    await saveNew(t, 'slow');
    await saveNew(t, 'fast');
    await t.storage.bucket(t.bucket).file('slow').getMetadata();
    await t.storage.bucket(t.bucket).file('fast').getMetadata();
    const gets = t.emulator!.requests.entries.filter((e) => e.method === 'GET');
    expect(gets[0]!.durationMs).toBeGreaterThanOrEqual(145);
    expect(gets[1]!.durationMs).toBeLessThan(145);
  });

  it('is configured over HTTP: POST, GET and DELETE /_emulator/faults, with validation', async () => {
    t = await startTestEmulator();
    const url = `${t.emulator!.url}/_emulator/faults`;
    const set = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ clockOffsetMs: 5000, rules: [{ errorRate: 0.5 }] }),
    });
    expect(set.status).toBe(200);
    expect(((await set.json()) as { clockOffsetMs: number }).clockOffsetMs).toBe(5000);
    const bad = await fetch(url, { method: 'POST', body: JSON.stringify({ rules: [{ errorRate: 3 }] }) });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toMatch(/errorRate must be a number between 0 and 1/);
    await fetch(url, { method: 'DELETE' });
    const cleared = (await (await fetch(url)).json()) as { rules: unknown[]; clockOffsetMs: number };
    expect(cleared).toMatchObject({ rules: [], clockOffsetMs: 0 });
  });

  it('applies a rule with times to that many matching requests only, then drops it', async () => {
    t = await startTestEmulator({ faults: { rules: [{ method: 'GET', errorRate: 1, errorStatus: 500, times: 2 }] } });
    await saveNew(t, 'n');
    const url = `${t.emulator!.url}/storage/v1/b/test-bucket/o/n`;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(url)).status);
    expect(statuses).toEqual([500, 500, 200]);
    expect(t.emulator!.faults.rules).toEqual([]);
    const bad = await fetch(`${t.emulator!.url}/_emulator/faults`, {
      method: 'POST',
      body: JSON.stringify({ rules: [{ errorRate: 1, times: 0 }] }),
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toMatch(/times must be a positive integer/);
    for (const [rules, message] of [
      [[null], /Each fault rule must be an object/],
      [[{ path: 'a'.repeat(300) }], /at most 256 characters/],
      [[{ query: 5 }], /must be a regular expression/],
    ] as const) {
      const r = await fetch(`${t.emulator!.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ rules }) });
      expect(r.status).toBe(400);
      expect(JSON.stringify(await r.json())).toMatch(message);
    }
  });

  it('replays the same random faults for the same seed', async () => {
    const run = () => {
      const faults = new Faults({ seed: 42, rules: [{ errorRate: 0.5, latencyMs: [0, 100] }] });
      return Array.from({ length: 50 }, () => faults.decide('GET', '/x'));
    };
    const first = run();
    expect(run()).toEqual(first);
    const errors = first.filter((d) => d.errorStatus === 503).length;
    expect(errors).toBeGreaterThan(10);
    expect(errors).toBeLessThan(40);
    expect(() => new Faults({ seed: 1.5 })).toThrow(/seed must be an integer/);
  });

  it('offsets its clock: object times and the Date header move together', async () => {
    t = await startTestEmulator({ faults: { clockOffsetMs: -150_000 } });
    await saveNew(t, 'skew');
    const res = await fetch(`${t.emulator!.url}/storage/v1/b/test-bucket/o/skew`);
    const body = (await res.json()) as { updated: string };
    const date = Date.parse(res.headers.get('date')!);
    expect(Math.abs(date - (Date.now() - 150_000))).toBeLessThan(2_000);
    expect(Math.abs(Date.parse(body.updated) - date)).toBeLessThan(2_000);
  });
});

describe('write-rate limit', () => {
  it('answers 429 rateLimitExceeded beyond about one write per second per object, and can be switched at run time', async () => {
    t = await startTestEmulator({ faults: { rateLimit: { enabled: true, burst: 2, perSecond: 1 } } });
    const raw = (name: string) =>
      fetch(`${t!.emulator!.url}/upload/storage/v1/b/test-bucket/o?uploadType=media&name=${name}`, {
        method: 'POST',
        body: 'x',
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await raw('hot')).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect((await raw('other')).status).toBe(200);
    const body = (await (await raw('hot')).json()) as { error: { errors: { reason: string }[] } };
    expect(body.error.errors[0]!.reason).toBe('rateLimitExceeded');
    t.emulator!.faults.set({ rateLimit: { enabled: false } });
    expect((await raw('hot')).status).toBe(200);
  });
});

describe('request log', () => {
  it('records method, path, query, status and timing, also over HTTP', async () => {
    t = await startTestEmulator();
    await saveNew(t, 'logged');
    await expectGcsError(saveNew(t, 'logged'), 412);
    const entries = t.emulator!.requests.entries;
    expect(entries.map((e) => e.status)).toEqual([200, 412]);
    expect(entries[0]!.query).toMatchObject({ uploadType: 'multipart', name: 'logged', ifGenerationMatch: '0' });
    const viaHttp = (await (await fetch(`${t.emulator!.url}/_emulator/requests`)).json()) as { requests: unknown[] };
    expect(viaHttp.requests).toHaveLength(2);
  });
});

describe('persistence', () => {
  it('keeps acknowledged state across a restart, including after compaction', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lockboard-emu-'));
    t = await startTestEmulator({ dataDir });
    await saveNew(t, 'persisted', '{"keep":true}');
    const [md] = await t.storage.bucket(t.bucket).file('persisted').getMetadata();
    await t.storage
      .bucket(t.bucket)
      .file('persisted')
      .setMetadata({ metadata: { a: 'b' } }, { ifMetagenerationMatch: 1 });
    await t.close();
    t = await startTestEmulator({ dataDir });
    const [after] = await t.storage.bucket(t.bucket).file('persisted').getMetadata();
    expect(after.generation).toBe(md.generation);
    expect(after.metageneration).toBe('2');
    expect(after.metadata).toEqual({ a: 'b' });
    await saveNew(t, 'second');
    const [second] = await t.storage.bucket(t.bucket).file('second').getMetadata();
    expect(BigInt(String(second.generation))).toBeGreaterThan(BigInt(String(md.generation)));
  });
});

describe('bad input', () => {
  const post = (path: string, init: RequestInit) => fetch(t!.emulator!.url + path, { method: 'POST', ...init });

  it('answers GCS-style 4xx errors and keeps serving', async () => {
    t = await startTestEmulator();
    const cases: [Promise<Response>, number, RegExp][] = [
      [post('/storage/v1/b?project=p', { body: '{not json' }), 400, /not valid JSON/],
      [
        post('/upload/storage/v1/b/test-bucket/o?uploadType=multipart&name=x', {
          body: 'x',
          headers: { 'content-type': 'multipart/related; boundary=zz' },
        }),
        400,
        /metadata part and a media part/,
      ],
      [post('/upload/storage/v1/b/nope/o?uploadType=media&name=x', { body: 'x' }), 404, /bucket does not exist/],
      [
        post(`/upload/storage/v1/b/test-bucket/o?uploadType=media&name=${'n'.repeat(1025)}`, { body: 'x' }),
        400,
        /1024 bytes/,
      ],
      [
        post('/upload/storage/v1/b/test-bucket/o?uploadType=media&name=x&ifGenerationMatch=abc', { body: 'x' }),
        400,
        /ifGenerationMatch/,
      ],
      [post('/upload/storage/v1/b/test-bucket/o?uploadType=weird&name=x', { body: 'x' }), 400, /uploadType/],
      [
        fetch(`${t.emulator!.url}/storage/v1/b/test-bucket/o/x`, { headers: { 'x-big': 'a'.repeat(20_000) } }),
        431,
        /too large/,
      ],
      [fetch(`${t.emulator!.url}/storage/v1/b/test-bucket/o?pageToken=%%%`), 400, /pageToken/],
      [post('/storage/v1/b?project=p', { body: '{"name":"test-bucket"}' }), 409, /already own it/],
    ];
    for (const [res, status, message] of cases) {
      const r = await res;
      expect(r.status).toBe(status);
      const body = (await r.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(status);
      expect(body.error.message).toMatch(message);
    }
    await saveNew(t, 'still-alive');
  });
});

describe('listing at scale', () => {
  it('pages 100 000 objects under prefixes correctly', () => {
    const store = new ObjectStore();
    store.createBucket('b', false, 0);
    for (let i = 0; i < 100_000; i++) {
      store.insertObject('b', `p${i % 10}/${String(i).padStart(6, '0')}`, Buffer.alloc(0), {}, {}, 1);
    }
    let token: string | undefined;
    let seen = 0;
    let pages = 0;
    do {
      const page = store.listObjects('b', { prefix: 'p3/', maxResults: 1000, pageToken: token });
      seen += page.items.length;
      expect(page.items.every((o) => o.name.startsWith('p3/'))).toBe(true);
      token = page.nextPageToken;
      pages++;
    } while (token);
    expect(seen).toBe(10_000);
    expect(pages).toBe(10);
  }, 120_000); // 100 000 inserts and a paged walk: CPU-bound, and slow on a busy core (#45)
});

describe('more of the API', () => {
  it('deletes one specific noncurrent generation and keeps the live one', async () => {
    t = await startTestEmulator({ buckets: [{ name: 'test-bucket', versioning: true }] });
    const f = t.storage.bucket(t.bucket).file('g');
    await saveNew(t, 'g', 'one');
    const [v1] = await f.getMetadata();
    await f.save('two', { resumable: false, preconditionOpts: { ifGenerationMatch: Number(v1.generation) } });
    await t.storage
      .bucket(t.bucket)
      .file('g', { generation: Number(v1.generation) })
      .delete();
    const [versions] = await t.storage.bucket(t.bucket).getFiles({ versions: true });
    expect(versions).toHaveLength(1);
    const [live] = await f.download();
    expect(live.toString()).toBe('two');
  });

  it('honours ifGenerationNotMatch and ifMetagenerationNotMatch (304 on reads, 412 on writes)', async () => {
    t = await startTestEmulator();
    await saveNew(t, 'nm');
    const [md] = await t.storage.bucket(t.bucket).file('nm').getMetadata();
    const base = `${t.emulator!.url}/storage/v1/b/test-bucket/o/nm`;
    expect((await fetch(`${base}?ifGenerationNotMatch=${md.generation}`)).status).toBe(304);
    expect((await fetch(`${base}?ifMetagenerationNotMatch=2`)).status).toBe(200);
    const patch = await fetch(`${base}?ifMetagenerationNotMatch=1`, {
      method: 'PATCH',
      body: '{"metadata":{"a":"b"}}',
    });
    expect(patch.status).toBe(412);
    const del = await fetch(`${base}?ifGenerationNotMatch=${md.generation}`, { method: 'DELETE' });
    expect(del.status).toBe(412);
  });

  it('replaces custom metadata with PUT, and lists and deletes buckets', async () => {
    t = await startTestEmulator();
    await t.storage
      .bucket(t.bucket)
      .file('put')
      .save('{}', {
        resumable: false,
        metadata: { metadata: { a: '1', b: '2' } },
        preconditionOpts: { ifGenerationMatch: 0 },
      });
    const res = await fetch(`${t.emulator!.url}/storage/v1/b/test-bucket/o/put`, {
      method: 'PUT',
      body: '{"metadata":{"c":"3"}}',
    });
    expect(((await res.json()) as { metadata: unknown }).metadata).toEqual({ c: '3' });
    await t.storage.createBucket('second-bucket');
    const [buckets] = await t.storage.getBuckets();
    expect(buckets.map((b) => b.name)).toEqual(['second-bucket', 'test-bucket']);
    await expectGcsError(t.storage.bucket('test-bucket').delete(), 409);
    await t.storage.bucket('second-bucket').delete();
    await expectGcsError(t.storage.bucket('second-bucket').getMetadata(), 404);
  });

  it('accepts a media upload and lists prefixes with a delimiter', async () => {
    t = await startTestEmulator();
    const up = await fetch(`${t.emulator!.url}/upload/storage/v1/b/test-bucket/o?uploadType=media&name=a%2Fb`, {
      method: 'POST',
      body: 'hi',
      headers: { 'content-type': 'text/plain' },
    });
    expect(((await up.json()) as { contentType: string }).contentType).toBe('text/plain');
    const list = await fetch(`${t.emulator!.url}/storage/v1/b/test-bucket/o?delimiter=/`);
    expect(await list.json()).toMatchObject({ prefixes: ['a/'] });
  });
});

describe('persistence after a crash', () => {
  it('ignores a torn last journal line and keeps everything acknowledged before it', async () => {
    const { appendFileSync } = await import('node:fs');
    const dataDir = mkdtempSync(join(tmpdir(), 'lockboard-emu-'));
    t = await startTestEmulator({ dataDir });
    await saveNew(t, 'acked');
    await t.close();
    appendFileSync(join(dataDir, 'journal.ndjson'), '{"t":"object","bucket":"test-bucket","name":"torn","li');
    t = await startTestEmulator({ dataDir });
    const [md] = await t.storage.bucket(t.bucket).file('acked').getMetadata();
    expect(md.name).toBe('acked');
    await expectGcsError(t.storage.bucket(t.bucket).file('torn').getMetadata(), 404);
    await saveNew(t, 'after');
    await t.close();
    t = await startTestEmulator({ dataDir });
    const [after] = await t.storage.bucket(t.bucket).file('after').getMetadata();
    expect(after.name).toBe('after');
  });
});
