// The create-only claim markers behind "one delivery per event across replicas", on the object stores that keep
// them: the first claim of a key wins, every later one (another replica's) loses, and the listing never shows them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GcsLockStore } from '@/lib/lock/stores/gcs';
import { S3LockStore } from '@/lib/lock/stores/s3';
import { FilesLockStore } from '@/lib/lock/stores/files';
import { DynamoLockStore } from '@/lib/lock/stores/dynamodb';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';
import { parseFilesSource } from '@/lib/lock/stores/files/source';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimKey, claimOnce } from '@/lib/server/notify/claims';
import type { LockStore } from '@/lib/lock/store';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { startS3, type S3Target } from '../helpers/s3';

let gcs: Target;
let s3: S3Target;
let dir: string;
let dynamo: TestDynamo;
beforeAll(async () => {
  dynamo = await startDynamo();
  await dynamo.table('tf-locks');
  await dynamo.table('lockboard-audit', 'lock', 'id');
  dir = mkdtempSync(join(tmpdir(), 'lockboard-claims-'));
  [gcs, s3] = await Promise.all([startTestEmulator(), startS3(['tf-state'])]);
});
afterAll(async () => {
  await Promise.all([gcs.close(), s3.close(), dynamo.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

const stores = (): [string, () => LockStore][] => [
  ['GCS', () => new GcsLockStore({ storage: gcs.storage, bucket: gcs.bucket })],
  ['S3', () => new S3LockStore({ client: s3.client, bucket: 'tf-state' })],
  ['DynamoDB', () => new DynamoLockStore({ client: dynamo.client, table: 'tf-locks' })],
  ['lock files', () => new FilesLockStore(parseFilesSource(`file://${dir}?depth=3`))],
];

describe('claims', () => {
  it.each(stores())('on %s, one of two replicas claims an event for a webhook', async (_, open) => {
    const [a, b] = [open(), open()];
    const key = claimKey('0123456789abcdef0123456789abcdef', 'platform-slack');
    expect(key).toMatch(/^notify-[0-9a-f]{32}$/);
    const won = await Promise.all([claimOnce(a, key, () => undefined), claimOnce(b, key, () => undefined)]);
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await claimOnce(a, key, () => undefined)).toBe(false);
    expect(await claimOnce(a, claimKey('0123456789abcdef0123456789abcdef', 'other'), () => undefined)).toBe(true);
    const page = await a.list();
    expect(page.locks.filter((l) => l.name.includes('claims'))).toEqual([]);
    const trail = await a.readAudit(new Date(Date.now() - 60_000), new Date(Date.now() + 60_000));
    expect(trail.filter((e) => e.lock.includes('claims') || e.id.includes('notify-'))).toEqual([]);
  });

  it('claims within the replica, and says so once, on a store without markers', async () => {
    const lines: string[] = [];
    const store = { kind: 'memory', source: 'memory://x' } as LockStore;
    expect(await claimOnce(store, 'notify-a', (l) => lines.push(l))).toBe(true);
    expect(await claimOnce(store, 'notify-a', (l) => lines.push(l))).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/memory:\/\/x: this store keeps no create-only marker/);
  });
});
