// The console's S3 side: one S3 client (the SDK's default credential chain; AWS_ENDPOINT_URL_S3 for an emulator,
// path style) and one S3LockStore per source, so its per-ETag body cache lives across polls. Listings share an
// in-flight request and a one-second cache, like GCS listings.
import 'server-only';
import { S3Client } from '@aws-sdk/client-s3';
import { S3LockStore } from '@/lib/lock/s3';
import type { StoreList } from '@/lib/lock/store';
import { env } from './env';
import type { Source } from './sources';

let client: S3Client | undefined;
const stores = new Map<string, S3LockStore>();
const listings = new Map<string, { at: number; value: Promise<StoreList> }>();
const TTL_MS = 1_000;

function s3Client(): S3Client {
  const { AWS_ENDPOINT_URL_S3: endpoint, AWS_REGION } = env();
  client ??= new S3Client({
    region: AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    ...(endpoint && !process.env.AWS_ACCESS_KEY_ID
      ? { credentials: { accessKeyId: 'lockboard', secretAccessKey: 'lockboard' } }
      : {}),
  });
  return client;
}

export function s3Store(source: Source): S3LockStore {
  let store = stores.get(source.id);
  if (!store) {
    store = new S3LockStore({
      client: s3Client(),
      bucket: source.bucket,
      prefix: source.prefix,
      auditPrefix: env().LOCKBOARD_AUDIT_PREFIX,
      longHeldMs: env().LOCKBOARD_LONG_HELD,
    });
    stores.set(source.id, store);
  }
  return store;
}

export function cachedS3List(source: Source): Promise<StoreList> {
  const now = performance.now();
  const hit = listings.get(source.id);
  if (hit && now - hit.at < TTL_MS) return hit.value;
  const value = s3Store(source).list();
  value.catch(() => listings.delete(source.id));
  listings.set(source.id, { at: now, value });
  return value;
}

export function invalidateS3Listings(): void {
  listings.clear();
}
