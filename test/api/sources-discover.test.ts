// POST /api/sources/discover called directly on the emulator's Cloud Storage: the configured source's project is
// discovered as `lockboard discover gs://` does it, streamed (progress, then the report); a bucket no configured
// source watches is "found but not watched" with its entry, the watched one is not; only GETs reach the store.
// Operators of every lock only; bad bodies are 4xx with words, never 5xx; one discovery at a time.
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePlainLock, writeTerraformLock } from '@/lib/demo/writers';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { call, request } from '../helpers/routes';

const OPERATOR = 'ops@example.com';
const VIEWER = 'dev@viewers.example';
const PATH = '/api/sources/discover';
let emulator: Emulator;
let route: typeof import('@/app/api/sources/discover/route');

beforeAll(async () => {
  emulator = await startEmulator({ buckets: ['watched', 'forgotten', 'data'] });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'test' });
  await writePlainLock(storage, 'watched', 'locks/deploy');
  await writeTerraformLock(storage, 'forgotten', 'envs/prod/default.tfstate');
  for (let i = 0; i < 20; i++) await storage.bucket('data').file(`rows/${i}.csv`).save('a,b\n');
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: 'gs://watched/locks/',
    LOCKBOARD_GCS_ENDPOINT: emulator.url,
    LOCKBOARD_OPERATORS: OPERATOR,
    LOCKBOARD_VIEWERS: '@viewers.example',
    NEXTAUTH_SECRET: (await import('../helpers/routes')).SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  route = await import('@/app/api/sources/discover/route');
}, 60_000);
afterAll(async () => {
  await emulator?.close();
});

type Line = {
  progress?: { target: string; sampled: number };
  report?: { unwatched: { source: string; evidence: string }[]; watched: number; targets: { summary: string }[] };
};
const linesOf = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

describe('POST /api/sources/discover', () => {
  it('finds the bucket no configured source watches, with its entry, streaming progress first; only reads', async () => {
    const before = emulator.requests.entries.length;
    const res = await call(route.POST, PATH, { as: OPERATOR, method: 'POST', body: {} });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = linesOf(res.text);
    expect(lines.slice(0, -1).every((l) => l.progress?.target === 'gs://')).toBe(true);
    expect(lines.length).toBeGreaterThan(1);
    const report = lines.at(-1)!.report!;
    expect(report.unwatched).toEqual([
      { source: 'gs://forgotten/envs/', evidence: '1 terraform · sampled 1', target: 'gs://' },
    ]);
    expect(report.watched).toBe(1); // gs://watched/locks/ found, and configured
    expect(report.targets[0]!.summary).toMatch(/^gs:\/\/ \(Cloud Storage\): 2 sources · \d+ requests, 22 read/);
    const sent = emulator.requests.entries.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((e) => e.method !== 'GET')).toEqual([]);
  });

  it('keeps to the bounds asked for, and says which stopped it', async () => {
    const res = await call(route.POST, PATH, { as: OPERATOR, method: 'POST', body: { sample: 3 } });
    const report = linesOf(res.text).at(-1)!.report!;
    expect(report.targets[0]!.summary).toMatch(/3 read.*stopped by the --sample bound/);
  });

  it('refuses viewers and accounts with no grant (403, with words)', async () => {
    const viewer = await call(route.POST, PATH, { as: VIEWER, method: 'POST', body: {} });
    expect(viewer.status).toBe(403);
    expect(viewer.json.error).toMatchObject({ message: 'This action needs the operator role; you are a viewer.' });
    const stranger = await call(route.POST, PATH, { as: 'x@elsewhere.example', method: 'POST', body: {} });
    expect(stranger.status).toBe(403);
  });

  it.each([
    [{ rawBody: 'not json', headers: { 'content-type': 'application/json' } }, 400, /not valid JSON/],
    [{ body: { sample: -5 } }, 400, /^sample: /],
    [{ body: { maxSeconds: 1e9 } }, 400, /^maxSeconds: /],
    [{ body: { sample: 'all' } }, 400, /^sample: /],
    [{ body: { targets: ['gs://'] } }, 400, /targets/],
    [{ body: [] }, 400, /./],
    [{ rawBody: '{}', headers: { 'content-type': 'text/plain' } }, 415, /as JSON/],
  ])('bad input %j is %i with words, never 5xx', async (opts, status, words) => {
    const res = await call(route.POST, PATH, { as: OPERATOR, method: 'POST', ...opts });
    expect(res.status).toBe(status);
    expect((res.json.error as { message: string }).message).toMatch(words);
  });

  it('runs one discovery at a time: a second while one streams is 409', async () => {
    const first = await route.POST(await request(PATH, { as: OPERATOR, method: 'POST', body: {} }), {
      params: Promise.resolve({}),
    });
    const second = await call(route.POST, PATH, { as: OPERATOR, method: 'POST', body: {} });
    expect(second.status).toBe(409);
    expect((second.json.error as { message: string }).message).toMatch(/already running/);
    expect(linesOf(await first.text()).at(-1)!.report).toBeDefined();
    expect((await call(route.POST, PATH, { as: OPERATOR, method: 'POST', body: {} })).status).toBe(200);
  });

  it('finds nothing unwatched once every lock is in a configured source (the empty state), the watched still counted', async () => {
    const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'test' });
    const [files] = await storage.bucket('forgotten').getFiles();
    await Promise.all(files.map((f) => f.delete()));
    const report = linesOf((await call(route.POST, PATH, { as: OPERATOR, method: 'POST', body: {} })).text).at(
      -1,
    )!.report!;
    expect(report.unwatched).toEqual([]);
    expect(report.watched).toBe(1);
  });
});
