// S3: listing a 10 000-object mixed prefix (Terraform state beside its S3 lockfiles, plain locks, Lockboard S3 locks,
// larger data) — ListObjectsV2 calls, GETs and time for a first and a second listing (bodies cached per ETag) — and
// the S3 requests each lock operation costs (acquire, refresh, release, force-release), counted from the emulator's
// request log through the AWS SDK.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { startEmulator } from '@/lib/emulator';
import { acquireS3Lock, S3LockStore } from '@/lib/lock/stores/s3';
import { s3ClientFor } from '../helpers/s3';
import { countEveryPage, printTable, round, writeJson } from './report';

const OBJECTS = 10_000;

export function mixedObject(i: number, now: number): [string, string] {
  const n = String(i).padStart(5, '0');
  switch (i % 5) {
    case 0:
      return [`mixed/tf/${n}/terraform.tfstate`, JSON.stringify({ version: 4, serial: i, pad: 'x'.repeat(5000) })];
    case 1:
      return [
        `mixed/tf/${n}/terraform.tfstate.tflock`,
        JSON.stringify({ ID: n, Operation: 'OperationTypeApply', Who: 'ci@runner' }),
      ];
    case 2:
      return [`mixed/remote/${n}.lock`, 'lock'];
    case 3: {
      const body = {
        format: 'lockboard/1',
        identity: `w-${n}`,
        ttl_ms: '60000',
        refresh_ms: '10000',
        token: '1',
        seq: '1',
        acquired_ms: String(now),
        nonce: n,
      };
      return [`mixed/lb/${n}`, JSON.stringify(body)];
    }
    default:
      return [`mixed/assets/${n}.bin`, 'y'.repeat(70_000)];
  }
}

export async function benchS3() {
  const emulator = await startEmulator({ s3: { buckets: ['bench'] } });
  const store3 = emulator.s3!.store;
  const now = Date.now();
  for (let i = 0; i < OBJECTS; i++) {
    const [key, body] = mixedObject(i, now);
    store3.put('bench', key, Buffer.from(body), { contentType: 'application/json', metadata: {} }, {}, now);
  }
  const client = s3ClientFor(emulator.s3!.url);
  const store = new S3LockStore({ client, bucket: 'bench', prefix: 'mixed/' });
  const log = emulator.s3!.requests;
  const listing: Record<string, string | number>[] = [];
  for (const run of ['first listing', 'second listing (bodies cached per ETag)']) {
    log.clear();
    const started = performance.now();
    const { locks, skipped } = await countEveryPage(store);
    const ms = performance.now() - started;
    const lists = log.count((e) => e.method === 'GET' && e.query['list-type'] === '2');
    const gets = log.count((e) => e.method === 'GET' && e.query['list-type'] === undefined);
    listing.push({
      run,
      objects: OBJECTS,
      locks,
      skipped,
      'ListObjectsV2 calls': lists,
      GETs: gets,
      'requests per lock': round((lists + gets) / locks, 2),
      ms: round(ms),
    });
  }
  printTable(`Listing a ${OBJECTS}-object mixed S3 prefix (5 kinds, 1/5 each; data over 64 KiB never read)`, listing);

  // Requests per operation (audit off, so only the lock's own requests are counted; audit adds one PUT each)
  const ops: Record<string, string | number>[] = [];
  const count = async (operation: string, fn: () => Promise<unknown>) => {
    log.clear();
    await fn();
    ops.push({
      operation,
      requests: log.entries.length,
      detail: log.entries.map((e) => `${e.method} ${e.status}`).join(', '),
    });
  };
  let lock!: Awaited<ReturnType<typeof acquireS3Lock>>;
  await count('acquire (uncontended)', async () => {
    lock = await acquireS3Lock({ client, bucket: 'bench', name: 'ops/a', ttlMs: 60_000, audit: false });
  });
  await count('refresh', () => lock.refresh());
  await count('release', () => lock.release());
  await count('acquire (a released marker there)', async () => {
    lock = await acquireS3Lock({ client, bucket: 'bench', name: 'ops/a', ttlMs: 60_000, audit: false });
  });
  await lock.release();
  await client.send(new PutObjectCommand({ Bucket: 'bench', Key: 'ops/tf.tflock', Body: '{"ID":"x","Who":"a@b"}' }));
  const seen = (await store.inspect('ops/tf.tflock'))!;
  await count('force-release (re-read, audit attempt, DeleteObject If-Match, audit outcome)', () =>
    store.forceRelease({ name: seen.name, version: seen.version, reason: 'bench', operator: 'bench' }),
  );
  printTable('S3 requests per lock operation', ops);
  client.destroy();
  await emulator.close();
  writeJson('s3', { objects: OBJECTS, listing, ops });
  return { listing, ops };
}
