// The locks route's windows from the server's index (lib/server/index): a first window while the first pass still
// walks the source (never "no locks" for want of a moment), counts by health over the whole source, every lock
// reached exactly once by following cursors, a filter over every lock, and bounded responses.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { SECRET } from '../helpers/routes';
import { EVERY_LOCK } from '@/lib/server/auth/access';

/** Every lock, said as the console's functions want it: never by leaving the scope out. */
const EVERY = { scope: EVERY_LOCK, sensitive: true };
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

const until = async (ok: () => Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('windows from the index', () => {
  it('answers from the first page while the pass runs, then counts and pages every lock exactly once', async () => {
    const { queryForConsole } = await import('@/lib/server/locks');
    const { sources } = await import('@/lib/server/sources');
    const deep = sources().find((s) => s.id === 's3://deep/a/')!;
    const sel = { id: deep.id, sources: [deep] };
    const q = { sort: 'name' as const, order: 'asc' as const, limit: 100 };
    const first = await queryForConsole(sel, q, EVERY);
    expect(first.locks.length).toBeLessThanOrEqual(100);
    expect(first.sources[0]!.listed).toBeGreaterThan(0);
    await until(async () => (await queryForConsole(sel, q, EVERY)).complete);
    const whole = await queryForConsole(sel, q, EVERY);
    expect(whole.total).toBe(1000);
    expect(whole.counts.unknown).toBe(1000); // a Terraform lock's liveness cannot be judged
    expect(whole.skipped).toBe(1500);
    expect(whole.locks).toHaveLength(100);
    expect(JSON.stringify(whole).length).toBeLessThan(100_000); // a window is bounded whatever the source holds
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const w = await queryForConsole(sel, { ...q, ...(cursor ? { cursor } : {}) }, EVERY);
      names.push(...w.locks.map((l) => l.name));
      cursor = w.nextCursor;
    } while (cursor);
    expect(names).toHaveLength(1000);
    expect(new Set(names).size).toBe(1000);
    expect(names).toEqual([...names].sort());
    const desc = await queryForConsole(sel, { ...q, order: 'desc', limit: 3 }, EVERY);
    expect(desc.locks.map((l) => l.name)).toEqual(names.slice(-3).reverse());
  });

  it('filters over every lock, not only a loaded slice, and counts the matches', async () => {
    const { queryForConsole } = await import('@/lib/server/locks');
    const { sources } = await import('@/lib/server/sources');
    const deep = sources().find((s) => s.id === 's3://deep/a/')!;
    const w = await queryForConsole(
      { id: deep.id, sources: [deep] },
      { q: 'U99', sort: 'name', order: 'asc', limit: 100 },
      EVERY,
    );
    // u99@ci, u990..u999@ci: owners anywhere in the set, found case-insensitively
    expect(w.matched).toBe(11);
    expect(w.locks.map((l) => l.identity).sort()).toContain('u999@ci');
  });

  it('never calls a source of data "no locks" while its pass runs, and finds its one lock when done', async () => {
    const { queryForConsole } = await import('@/lib/server/locks');
    const { sources } = await import('@/lib/server/sources');
    const source = sources().find((s) => s.id === 's3://empty-ish/a/')!;
    const sel = { id: source.id, sources: [source] };
    const q = { sort: 'name' as const, order: 'asc' as const, limit: 100 };
    const first = await queryForConsole(sel, q, EVERY);
    if (first.total === 0) expect(first.complete).toBe(false);
    await until(async () => (await queryForConsole(sel, q, EVERY)).complete);
    expect((await queryForConsole(sel, q, EVERY)).locks.map((l) => l.name)).toEqual(['a/zz.tflock']);
  });

  it('refuses a cursor it did not give with a 400 that says what to do', async () => {
    const { queryForConsole } = await import('@/lib/server/locks');
    const { sources } = await import('@/lib/server/sources');
    const deep = sources().find((s) => s.id === 's3://deep/a/')!;
    await expect(
      queryForConsole(
        { id: deep.id, sources: [deep] },
        { sort: 'name', order: 'asc', limit: 5, cursor: 'garbage' },
        EVERY,
      ),
    ).rejects.toThrow(/start again without it/);
  });
});
