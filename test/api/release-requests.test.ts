// Release what is shown (#39 item 6): the request pins the version and carries the owner's digest, not its text; a
// batch checks each lock alone and fits its documented 100 locks; names with `.` and `..` segments reach their page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock } from '@/lib/lock';
import { ownerDigest } from '@/lib/lock/audit/owner-digest';
import type { LockInfo } from '@/lib/lock/types';
import { seenLockBody } from '@/lib/console/release-body';
import { lockHref } from '@/lib/console/queries';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';

const OPERATOR = 'ops@example.com';
let t: Target;
let routes: Routes;

beforeAll(async () => {
  t = await startTestEmulator();
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_PREFIXES: 'locks/',
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_SOURCES;
  routes = await importRoutes();
});
afterAll(() => t.close());

const post = (handler: Routes['release']['POST'], path: string, body: unknown) =>
  call(handler, path, { as: OPERATOR, method: 'POST', body });

describe('release requests', () => {
  it('releases a lock whose identity is 6 000 characters long, by the owner digest the dialog sends', async () => {
    const identity = `runner-${'x'.repeat(6000)}`;
    // written as any holder can write it (the library itself caps identities at 512 characters)
    await t.storage
      .bucket(t.bucket)
      .file('locks/long-owner')
      .save('', { metadata: { metadata: { format: 'lockboard/1', ttl_ms: '60000', identity } } });
    const listed = await call(
      routes.lock.GET,
      '/api/locks/locks/long-owner',
      { as: OPERATOR },
      { name: ['locks', 'long-owner'] },
    );
    const seen = listed.json as unknown as LockInfo;
    expect(seen.identity).toBe(identity);
    // the body the release dialog sends
    const body = { ...seenLockBody(seen), acknowledgeAlive: true, reason: 'stuck' };
    expect(JSON.stringify(body)).not.toContain('xxxxxxxx');
    expect(body.owner).toBe(ownerDigest(identity));
    const r = await post(routes.release.POST, '/api/locks/release', body);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect((await t.storage.bucket(t.bucket).file('locks/long-owner').exists())[0]).toBe(false);
  });

  it('takes a batch of 100 ordinary locks as the dialog sends them, within the body cap', async () => {
    // as listed (the fields the dialog reads), with realistic names, sources, versions and owners
    const locks = Array.from({ length: 100 }, (_, i) =>
      seenLockBody({
        name: `locks/ci-runner-pool-${String(i).padStart(3, '0')}/deploy-production-eu-west`,
        bucket: t.bucket,
        source: `gs://${t.bucket}/locks/`,
        version: `17325432001234${String(i).padStart(2, '0')}.1`,
        identity: `ci-runner-${i}.example.internal:4242:deadbeef`,
      }),
    );
    const body = { reason: 'runner pool died', locks };
    console.log(`batch of 100 locks: ${JSON.stringify(body).length} bytes`);
    const r = await post(routes.batch.POST, '/api/locks/release-batch', body);
    expect(r.status, JSON.stringify(r.json).slice(0, 200)).toBe(200);
    expect((r.json.results as unknown[]).length).toBe(100);
  });

  it('refuses a malformed or repeated lock by itself; the rest of the batch is released', async () => {
    const lock = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/batch-ok',
      ttlMs: 60_000,
      audit: false,
    });
    const ok = {
      name: 'locks/batch-ok',
      generation: lock.generation,
      metageneration: lock.currentMetageneration,
      acknowledgeAlive: true, // its holder refreshes: alive
    };
    const r = await post(routes.batch.POST, '/api/locks/release-batch', {
      reason: 'cleanup',
      locks: [{ name: 'locks/bad', version: 12 }, ok, ok, 'not a lock'],
    });
    expect(r.status).toBe(200);
    const results = r.json.results as { name?: string; outcome: string; message: string }[];
    expect(results.map((x) => x.outcome)).toEqual(['not-attempted', 'released', 'not-attempted', 'not-attempted']);
    expect(results[0]).toMatchObject({ name: 'locks/bad', message: expect.stringMatching(/^version: /) });
    expect(results[2]!.message).toMatch(/listed twice/);
  });
});

describe('names with . and .. segments', () => {
  it('link to their own page and API, not to the name URLs resolve them to', async () => {
    const name = 'locks/a/../b/./c';
    await t.storage
      .bucket(t.bucket)
      .file(name)
      .save('', { metadata: { metadata: { format: 'lockboard/1', ttl_ms: '60000', identity: 'dots' } } });
    const href = lockHref(name);
    const url = new URL(href, 'http://console.test');
    expect(url.pathname).toBe('/locks/~');
    expect(url.searchParams.get('name')).toBe(name);
    const api = await call(routes.lock.GET, `/api/locks/~${url.search}`, { as: OPERATOR }, { name: ['~'] });
    expect(api.status).toBe(200);
    expect(api.json).toMatchObject({ name, identity: 'dots' });
    expect(lockHref('locks/plain')).toBe('/locks/locks/plain');
  });

  it("answers a stale view of a lock now held by an alive successor as changed, not as the successor's verdict", async () => {
    const base = { storage: t.storage, bucket: t.bucket, name: 'locks/handed-on', audit: false as const };
    const first = await acquireLock({ ...base, ttlMs: 60_000 });
    const seen = { name: base.name, generation: first.generation, metageneration: first.currentMetageneration };
    await first.release();
    const successor = await acquireLock({ ...base, ttlMs: 60_000 }); // refreshing: judged alive
    const r = await post(routes.release.POST, '/api/locks/release', { ...seen, reason: 'stuck' });
    expect(r.status, JSON.stringify(r.json)).toBe(409);
    expect(r.json.outcome ?? r.json.error).toBeDefined();
    expect(JSON.stringify(r.json)).toMatch(/changed|another holder/i);
    expect(JSON.stringify(r.json)).not.toMatch(/clearing makes two holders/);
    // the successor's own version is judged: alive, so it needs the acknowledgement
    const own = { name: base.name, generation: successor.generation, metageneration: successor.currentMetageneration };
    const refused = await post(routes.release.POST, '/api/locks/release', { ...own, reason: 'stuck' });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.json)).toMatch(/clearing makes two holders/);
    await successor.release();
  });
});
