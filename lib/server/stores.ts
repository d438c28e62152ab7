// The console's stores besides GCS: one client per store (S3: the SDK's default chain, AWS_ENDPOINT_URL_S3 for an
// emulator, path style; Redis: one connection per source URL; PostgreSQL: a pool of two per source) and one LockStore per source, so per-store caches (S3
// bodies by ETag, Redis first-seen times) live across polls. Listings share an in-flight request and a one-second
// cache, like GCS listings.
import 'server-only';
import { S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { createClient } from 'redis';
import { PostgresLockStore } from '@/lib/lock/stores/postgres';
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { S3LockStore } from '@/lib/lock/stores/s3';
import type { LockStore, StoreList } from '@/lib/lock/store';
import { env } from './env';
import type { Source } from './sources';

let s3: S3Client | undefined;
const stores = new Map<string, Promise<LockStore>>();
const listings = new Map<string, { at: number; value: Promise<StoreList> }>();
const TTL_MS = 1_000;

function s3Client(): S3Client {
  const { AWS_ENDPOINT_URL_S3: endpoint, AWS_REGION } = env();
  s3 ??= new S3Client({
    region: AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    ...(endpoint && !process.env.AWS_ACCESS_KEY_ID
      ? { credentials: { accessKeyId: 'lockboard', secretAccessKey: 'lockboard' } }
      : {}),
  });
  return s3;
}

async function openStore(source: Source): Promise<LockStore> {
  const { LOCKBOARD_AUDIT_PREFIX: auditPrefix, LOCKBOARD_LONG_HELD: longHeldMs } = env();
  if (source.store === 's3') {
    return new S3LockStore({
      client: s3Client(),
      bucket: source.bucket,
      prefix: source.prefix,
      auditPrefix,
      longHeldMs,
    });
  }
  if (source.store === 'postgres') {
    // a small pool of the console's own connections (never a lock holder's session)
    const pool = new pg.Pool({
      connectionString: source.url,
      max: 2,
      application_name: 'lockboard-console',
      connectionTimeoutMillis: 5_000,
    });
    pool.on('error', () => {});
    return new PostgresLockStore({ client: pool, source: source.id, longHeldMs });
  }
  const client = createClient({ url: source.url, socket: { connectTimeout: 5_000 } });
  client.on('error', () => {}); // reconnects by itself; a request meanwhile fails and the route answers 503
  await client.connect();
  return new RedisLockStore({ client, match: source.match, source: source.id, longHeldMs });
}

export function storeFor(source: Source): Promise<LockStore> {
  let store = stores.get(source.id);
  if (!store) {
    store = openStore(source);
    store.catch(() => stores.delete(source.id)); // unreachable now: try again on the next request
    stores.set(source.id, store);
  }
  return store;
}

export function cachedStoreList(source: Source): Promise<StoreList> {
  const now = performance.now();
  const hit = listings.get(source.id);
  if (hit && now - hit.at < TTL_MS) return hit.value;
  const value = storeFor(source).then((store) => store.list());
  value.catch(() => listings.delete(source.id));
  listings.set(source.id, { at: now, value });
  return value;
}

export function invalidateStoreListings(): void {
  listings.clear();
}
