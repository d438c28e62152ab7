// Metadata-first listings (GCS and S3, through the official clients against the emulator): objects whose body is not
// read yet are listed at once as pending, their bodies read in the background with bounded concurrency and handed
// over in batches (a data object turns out not to be a lock and is dropped), a second listing has them from the
// cache, and `listAll` (what `lockboard ls` prints) equals the complete listing. The stores are the classes the
// package exports (judged): a view read later carries its verdict as a view of the page does.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAll } from '@/lib/lock/list-all';
import type { LockStore, LockView } from '@/lib/lock/store';
import { GcsLockStore } from '@/lib/lock/stores/gcs';
import { S3LockStore } from '@/lib/lock/stores/s3';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { startS3, type S3Target } from '../helpers/s3';
import { writeTerraformLock } from '../helpers/writers';

const N = 60;
let g: Target;
let s: S3Target;

const tfInfo = (i: number) =>
  JSON.stringify({ ID: `id-${i}`, Operation: 'OperationTypeApply', Who: `user-${i}@ci`, Version: '1.9.5' });

beforeAll(async () => {
  g = await startTestEmulator({ buckets: ['cold'] });
  s = await startS3(['cold']);
  for (let i = 0; i < N; i++) {
    await writeTerraformLock(g.storage, 'cold', `envs/e${i}/default.tfstate`, `user-${i}@ci`);
    await s.client.send(
      new PutObjectCommand({ Bucket: 'cold', Key: `envs/e${i}/terraform.tfstate.tflock`, Body: tfInfo(i) }),
    );
  }
  // small, no metadata: it could be a plain lock ("lock", "1", a UUID) until its body says otherwise, then dropped
  await g.storage.bucket('cold').file('misc/note.txt').save('hello', { resumable: false });
  await s.client.send(new PutObjectCommand({ Bucket: 'cold', Key: 'misc/note.txt', Body: 'hello' }));
}, 60_000);
afterAll(async () => {
  await g?.close();
  await s?.close();
});

async function progressive(store: LockStore) {
  const reads: { views: LockView[]; dropped: string[] }[] = [];
  const page = await store.list(undefined, { later: (r) => reads.push(r) });
  const delivered = () => reads.reduce((n, r) => n + r.views.length + r.dropped.length, 0);
  for (let i = 0; i < 200 && delivered() < N + 1; i++) await new Promise((r) => setTimeout(r, 20));
  return { page, reads };
}

describe.each([
  ['gcs', () => new GcsLockStore({ storage: g.storage, bucket: 'cold' })],
  ['s3', () => new S3LockStore({ client: s.client, bucket: 'cold' })],
])('a cold %s listing, metadata first', (_kind, open) => {
  it('lists every body-needing object as pending at once and fills each in as it is read', async () => {
    const store = open();
    const { page, reads } = await progressive(store);
    expect(page.locks).toHaveLength(N + 1);
    expect(page.locks.every((l) => l.pending && !l.releasable)).toBe(true);
    const views = reads.flatMap((r) => r.views);
    const dropped = reads.flatMap((r) => r.dropped);
    expect(views).toHaveLength(N);
    expect(views.every((v) => v.format === 'terraform' && !v.pending && v.identity?.endsWith('@ci'))).toBe(true);
    expect(views.every((v) => v.verdict === 'unknown' && v.sentence?.startsWith('Unknown: '))).toBe(true);
    expect(views.filter((v) => 'signs' in v)).toEqual([]);
    expect(dropped).toEqual(['misc/note.txt']);
    expect(reads.length).toBeLessThan(N / 2); // batches, not one callback per object

    // a second listing has every body from the cache: nothing pending, nothing read again
    const again = await store.list(undefined, { later: () => undefined });
    expect(again.locks.filter((l) => l.pending)).toEqual([]);
    expect(again.locks).toHaveLength(N);
  });

  it('gives `lockboard ls` (listAll) the same locks as a complete listing', async () => {
    const full = await open().list();
    const all = await listAll(open());
    const key = (l: LockView) => `${l.name} ${l.version} ${l.identity} ${l.verdict}`;
    expect(all.locks.map(key).sort()).toEqual(full.locks.map(key).sort());
    expect(all.skipped).toBe(full.skipped);
  });
});
