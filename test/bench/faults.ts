// npm run bench -- faults: a whole-bucket GCS and S3 source's listing while its audit trail grows. Lockboard lists around
// the trail (two ranges of one listing); the baseline is the plain whole-bucket listing a user would otherwise run
// (every object under the bucket, the trail included, as Lockboard itself did before). List calls and time per full
// listing, from the emulator's request log.
import { randomBytes } from 'node:crypto';
import { startEmulator } from '@/lib/emulator';
import { acquireLock, auditObjectName } from '@/lib/lock';
import { listLocks } from '@/lib/lock/stores/gcs/list';
import { GcsLockStore } from '@/lib/lock/stores/gcs';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { S3LockStore } from '@/lib/lock/stores/s3';
import { s3ClientFor } from '../helpers/s3';
import { printTable, round, writeJson } from './report';

const AUDIT = '.lockboard/audit/';
const LOCKS = 200;
const TRAIL = [0, 2_000, 10_000, 40_000];
const RUNS = 3;
const S3_FIELDS = { contentType: 'application/octet-stream', metadata: {} };

async function countLocks(store: { list(token?: string): Promise<{ locks: unknown[]; nextPageToken?: string }> }) {
  let n = 0;
  let token: string | undefined;
  do {
    const page = await store.list(token);
    n += page.locks.length;
    token = page.nextPageToken;
  } while (token);
  return n;
}

async function timed(fn: () => Promise<number>): Promise<{ ms: number; locks: number }> {
  let best = Infinity;
  let locks = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    locks = await fn();
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, locks };
}

export async function benchFaults() {
  const emulator = await startEmulator({ buckets: ['whole'], s3: { buckets: ['whole-s3'] } });
  const s3 = s3ClientFor(emulator.s3!.url);
  const s3store = new S3LockStore({ client: s3, bucket: 'whole-s3', prefix: '' });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'bench' });
  const t0 = Date.now();
  for (let i = 0; i < LOCKS; i++)
    emulator.s3!.store.put('whole-s3', `locks/${i}.lock`, Buffer.from('lock'), S3_FIELDS, {}, t0);
  for (let i = 0; i < LOCKS; i++)
    await acquireLock({
      storage,
      bucket: 'whole',
      name: `locks/${i}`,
      identity: `w${i}`,
      ttlMs: 600_000,
      audit: false,
    });
  const store = new GcsLockStore({ storage, bucket: 'whole', prefix: '', auditPrefix: AUDIT });
  const around = () => countLocks(store);
  const plain = async () => {
    let n = 0;
    let token: string | undefined;
    do {
      const page = await listLocks({ storage, bucket: 'whole', prefix: '', pageToken: token });
      n += page.locks.filter((l) => !l.name.startsWith(AUDIT)).length;
      token = page.nextPageToken;
    } while (token);
    return n;
  };
  const s3around = () => countLocks(s3store);
  const s3plain = async () => {
    let n = 0;
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: 'whole-s3', ContinuationToken: token }));
      n += (page.Contents ?? []).filter((c) => !c.Key!.startsWith(AUDIT)).length;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return n;
  };
  const lists = () =>
    emulator.requests.entries.filter((e) => e.method === 'GET' && e.path.endsWith('/o')).length +
    emulator.s3!.requests.count((e) => e.method === 'GET' && e.query['list-type'] === '2');
  const rows: Record<string, string | number>[] = [];
  let seeded = 0;
  const now = Date.now();
  for (const trail of TRAIL) {
    for (; seeded < trail; seeded++) {
      emulator.store.insertObject('whole', auditObjectName(AUDIT, now - seeded), randomBytes(8), {}, {}, now);
      emulator.s3!.store.put('whole-s3', auditObjectName(AUDIT, now - seeded), randomBytes(8), S3_FIELDS, {}, now);
    }
    for (const [how, fn] of [
      ['GCS around the trail (Lockboard)', around],
      ['GCS whole bucket (baseline)', plain],
      ['S3 around the trail (Lockboard)', s3around],
      ['S3 whole bucket (baseline)', s3plain],
    ] as const) {
      emulator.requests.clear();
      emulator.s3!.requests.clear();
      const { ms, locks } = await timed(fn);
      rows.push({ 'audit events': trail, listing: how, locks, 'list calls': lists() / RUNS, 'best ms': round(ms) });
    }
  }
  await emulator.close();
  printTable(`Whole-bucket listing of ${LOCKS} locks while the audit trail grows (best of ${RUNS})`, rows);
  writeJson('faults', { locks: LOCKS, runs: RUNS, rows });
  return rows;
}
