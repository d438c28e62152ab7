// A whole-bucket GCS source lists around its audit trail: the trail's objects are never read (two ranges of one
// listing, endOffset before the trail and startOffset after it), so the list calls stay the same however long the
// trail grows; locks on both sides are listed and page tokens carry the range they continue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, auditObjectName, LockOptionsError, type Lock } from '@/lib/lock';
import type { LockStore } from '@/lib/lock/store';
import { GcsLockStore } from '@/lib/lock/stores/gcs';
import { trailGap } from '@/lib/lock/objects/around-trail';
import { S3LockStore } from '@/lib/lock/stores/s3';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { s3ClientFor } from '../helpers/s3';

const AUDIT = '.lockboard/audit/';
let t: Target;
const held: Lock[] = [];

beforeAll(async () => {
  t = await startTestEmulator({ s3: { buckets: ['s3-whole'] } });
  for (const name of ['.aaa/lock', '.lockboard/zz-lock', 'locks/deploy'])
    held.push(await acquireLock({ storage: t.storage, bucket: t.bucket, name, identity: name, ttlMs: 60_000 }));
});
afterAll(async () => {
  await Promise.allSettled(held.map((l) => l.release()));
  await t.close();
});

function seedTrail(n: number): void {
  const now = Date.now();
  for (let i = 0; i < n; i++)
    t.emulator!.store.insertObject(t.bucket, auditObjectName(AUDIT, now - i), Buffer.from('{}'), {}, {}, now);
}

async function listEverything(store: LockStore, pageSize?: number) {
  const names: string[] = [];
  let skipped = 0;
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await store.list(token, pageSize ? { pageSize } : {});
    names.push(...page.locks.map((l) => l.name));
    skipped += page.skipped;
    token = page.nextPageToken;
    pages++;
  } while (token && pages < 50);
  return { names: names.sort(), skipped, pages };
}

describe('a whole-bucket source and its audit trail', () => {
  it('lists the locks on both sides of the trail with the same list calls whether it holds 10 or 3 000 events', async () => {
    const store = new GcsLockStore({ storage: t.storage, bucket: t.bucket, prefix: '', auditPrefix: AUDIT });
    const calls: number[] = [];
    for (const size of [10, 2_990]) {
      seedTrail(size);
      t.emulator!.requests.clear();
      const { names, skipped } = await listEverything(store);
      expect(names).toEqual(['.aaa/lock', '.lockboard/zz-lock', 'locks/deploy']);
      expect(skipped).toBe(0);
      const lists = t.emulator!.requests.entries.filter((e) => e.method === 'GET' && e.path.endsWith('/o'));
      expect(lists.every((e) => e.query.endOffset === AUDIT || e.query.startOffset === '.lockboard/audit0')).toBe(true);
      calls.push(lists.length);
    }
    expect(calls).toEqual([2, 2]);
  });

  it('continues each range with its own page token; a token from elsewhere is a usage error', async () => {
    const store = new GcsLockStore({ storage: t.storage, bucket: t.bucket, prefix: '', auditPrefix: AUDIT });
    const { names } = await listEverything(store, 1);
    expect(names).toEqual(['.aaa/lock', '.lockboard/zz-lock', 'locks/deploy']);
    await expect(store.list('CgRsb2Nr')).rejects.toBeInstanceOf(LockOptionsError);
  });

  it('lists an S3 bucket around its trail too: no page of trail keys after the first, locks on both sides', async () => {
    const s3 = t.emulator!.s3!;
    const now = Date.now();
    const plain = (key: string) =>
      s3.store.put('s3-whole', key, Buffer.from('lock'), { contentType: 'application/json', metadata: {} }, {}, now);
    for (const key of ['.aaa.lock', 'zz/deploy.lock']) plain(key);
    const store = new S3LockStore({ client: s3ClientFor(s3.url), bucket: 's3-whole', prefix: '' });
    const calls: number[] = [];
    for (const size of [10, 2_990]) {
      for (let i = calls.length * 10; i < size; i++) plain(auditObjectName(AUDIT, now - i));
      s3.requests.clear();
      const { names, skipped } = await listEverything(store);
      expect(names).toEqual(['.aaa.lock', 'zz/deploy.lock']);
      expect(skipped).toBe(0);
      calls.push(s3.requests.count((e) => e.method === 'GET' && e.query['list-type'] === '2'));
    }
    expect(calls).toEqual([2, 2]);
  });

  it('leaves a prefix that does not hold the trail as it was', () => {
    expect(trailGap('locks/', AUDIT)).toBeNull();
    expect(trailGap('.lockboard/', AUDIT)).toEqual({ before: AUDIT, after: '.lockboard/audit0' });
  });
});
