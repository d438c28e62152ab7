// The scale bench's object stores and DynamoDB: 100 000 locks each (SCALE_STORE_SIZE to choose) in one GCS prefix
// (the emulator), one S3 prefix (the emulator) and one DynamoDB table (dynalite), indexed as the console's watcher
// does, against the bare listing a user would otherwise write with the official client in the same run: GCS and S3
// list pages of 1 000 (S3 then GETs each body, as its locks hold their state there), DynamoDB one sequential Scan.
// Per store: list calls and body reads, the cold index against the baseline, and the queries over every lock.
import { BatchWriteItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { startEmulator } from '@/lib/emulator';
import type { LockStore } from '@/lib/lock/store';
import { DynamoLockStore } from '@/lib/lock/stores/dynamodb/store';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { GcsLockStore } from '@/lib/lock/stores/gcs/store';
import { S3LockStore } from '@/lib/lock/stores/s3';
import { LockIndex } from '@/lib/lock/query/lock-index';
import { runQuery, type LockQuery } from '@/lib/lock/query/query';
import { startDynamo } from '../helpers/dynamodb';
import { s3ClientFor } from '../helpers/s3';
import { round } from './report';

const N = Number(process.env.SCALE_STORE_SIZE ?? 100_000);
const name = (i: number) => `locks/job-${String(i).padStart(7, '0')}`;
const body = (i: number, now: number) =>
  JSON.stringify({
    format: 'lockboard/1',
    identity: `worker-${i}`,
    ttl_ms: '600000',
    refresh_ms: '60000',
    token: '1',
    seq: '1',
    acquired_ms: String(now),
  });

export async function coldIndex(store: LockStore) {
  const index = new LockIndex();
  const started = performance.now();
  let firstPageMs = 0;
  let token: string | undefined;
  index.beginPass();
  do {
    const page = await store.list(token);
    const now = store.now();
    for (const lock of page.locks) index.upsert(lock, now);
    firstPageMs ||= performance.now() - started;
    token = page.nextPageToken;
  } while (token);
  index.endPass();
  return { index, ms: performance.now() - started, firstPageMs };
}

function queries(index: LockIndex, id: string) {
  const q = (o: Partial<LockQuery>) => {
    const started = performance.now();
    runQuery([{ id, rows: index.rows.values(), counts: index.counts, size: index.size }], {
      sort: 'name',
      order: 'asc',
      limit: 100,
      ...o,
    });
    return round(performance.now() - started);
  };
  return {
    'window ms': q({}),
    'filter ms': q({ q: 'worker-4242' }),
    'sort expires ms': q({ sort: 'expires', order: 'desc' }),
    'exact ms': q({ q: name(N - 1) }),
  };
}

type Cold = Awaited<ReturnType<typeof coldIndex>>;

/** One store's line: the cold index against the bare listing, what it asked the store, and the queries. */
function line(store: string, id: string, x: Cold, bare: { ms: number; calls: number }, lists: number, bodies: number) {
  return {
    store,
    locks: x.index.size,
    'bare list s': round(bare.ms / 1000, 2),
    'bare calls': bare.calls,
    'cold index s': round(x.ms / 1000, 2),
    ratio: round(x.ms / bare.ms, 2),
    'list calls': lists,
    'body reads': bodies,
    'first page ms': round(x.firstPageMs),
    ...queries(x.index, id),
  };
}

export async function benchScaleStores(): Promise<Record<string, string | number>[]> {
  const rows: Record<string, string | number>[] = [];
  const now = Date.now();
  const em = await startEmulator({ buckets: ['scale'], s3: { buckets: ['scale'] } });
  const d = await startDynamo();
  try {
    // GCS: Lockboard's own lock objects (their state in metadata: no body read needed)
    for (let i = 0; i < N; i++) {
      const metadata = {
        identity: `worker-${i}`,
        ttl_ms: '600000',
        refresh_ms: '60000',
        format: 'lockboard/1',
        expires_at: String(now / 1000 + 600),
      };
      em.store.insertObject('scale', name(i), Buffer.from('{}'), { metadata }, {}, now);
    }
    const storage = new Storage({ apiEndpoint: em.url, projectId: 'bench' });
    em.requests.clear();
    let started = performance.now();
    const [files] = await storage.bucket('scale').getFiles({ prefix: 'locks/', maxResults: undefined });
    const bareGcs = { ms: performance.now() - started, calls: em.requests.count((e) => e.method === 'GET') };
    if (files.length !== N) throw new Error(`the bare listing found ${files.length} of ${N} objects`);
    em.requests.clear();
    const gcs = await coldIndex(new GcsLockStore({ storage, bucket: 'scale', prefix: 'locks/' }));
    const gets = (objects: boolean) =>
      em.requests.count((e) => e.method === 'GET' && e.path.includes('/o/') === objects);
    rows.push(line('GCS (emulator)', 'gs://scale/locks/', gcs, bareGcs, gets(false), gets(true)));
    console.log(rows[rows.length - 1]);

    // S3: Lockboard's lock objects, whose state is the body (S3 lists no metadata: each lock is one GET)
    const s3 = em.s3!;
    for (let i = 0; i < N; i++)
      s3.store.put(
        'scale',
        name(i),
        Buffer.from(body(i, now)),
        { contentType: 'application/json', metadata: {} },
        {},
        now,
      );
    const client = s3ClientFor(s3.url);
    s3.requests.clear();
    started = performance.now();
    let token: string | undefined;
    const keys: string[] = [];
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: 'scale', Prefix: 'locks/', ContinuationToken: token }),
      );
      keys.push(...(page.Contents ?? []).map((c) => c.Key!));
      token = page.NextContinuationToken;
    } while (token);
    for (let i = 0; i < keys.length; i += 64)
      await Promise.all(
        keys
          .slice(i, i + 64)
          .map((k) =>
            client.send(new GetObjectCommand({ Bucket: 'scale', Key: k })).then((o) => o.Body?.transformToString()),
          ),
      );
    const bareS3 = { ms: performance.now() - started, calls: s3.requests.entries.length };
    s3.requests.clear();
    const s3x = await coldIndex(new S3LockStore({ client, bucket: 'scale', prefix: 'locks/' }));
    const lists = s3.requests.count((e) => e.method === 'GET' && e.query['list-type'] === '2');
    const bodies = s3.requests.count((e) => e.method === 'GET' && e.query['list-type'] === undefined);
    rows.push(line('S3 (emulator)', 's3://scale/locks/', s3x, bareS3, lists, bodies));
    console.log(rows[rows.length - 1]);

    // DynamoDB: Terraform's lock items, written 25 a call
    await d.table('scale-locks', 'LockID');
    for (let start = 0; start < N; start += 25) {
      const puts = [];
      for (let i = start; i < Math.min(N, start + 25); i++) {
        const info = {
          ID: `id-${i}`,
          Operation: 'OperationTypeApply',
          Who: `worker-${i}`,
          Version: '1.11.4',
          Created: new Date(now).toISOString(),
          Path: `${name(i)}.tfstate`,
        };
        puts.push({ PutRequest: { Item: { LockID: { S: name(i) }, Info: { S: JSON.stringify(info) } } } });
      }
      await d.client.send(new BatchWriteItemCommand({ RequestItems: { 'scale-locks': puts } }));
    }
    started = performance.now();
    let bareCalls = 0;
    let start: Record<string, never> | undefined;
    do {
      const out = await d.client.send(new ScanCommand({ TableName: 'scale-locks', ExclusiveStartKey: start }));
      bareCalls++;
      start = out.LastEvaluatedKey as typeof start;
    } while (start);
    const bareDynamo = performance.now() - started;
    const dstore = new DynamoLockStore({ client: d.client, table: 'scale-locks' });
    const before = dstore.table.requests;
    const dx = await coldIndex(judgedStore(dstore));
    const scans = dstore.table.requests - before;
    rows.push(
      line('DynamoDB (dynalite)', 'dynamodb://scale-locks', dx, { ms: bareDynamo, calls: bareCalls }, scans, 0),
    );
    console.log(rows[rows.length - 1]);
  } finally {
    await em.close();
    await d.stop();
  }
  return rows;
}
