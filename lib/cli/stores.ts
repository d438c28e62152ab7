// The CLI on the stores besides GCS: s3:// (the S3 store and Lockboard's S3 lock) and redis:// / rediss:// (the
// Redis store and Lockboard's Redis lock): ls, status, release and run through the common LockStore. Each store's
// client is loaded only here, so GCS users need not install it. S3: the AWS SDK's own chain (AWS_ENDPOINT_URL_S3 for
// an emulator, path style; AWS_REGION). Redis: the URL (REDISCLI_AUTH for a password it lacks).
import type { S3Client } from '@aws-sdk/client-s3';
import type { LockInfo } from '../lock/types';
import type { LockStore, LockView } from '../lock/store';
import { EXIT, formatDuration, UsageError } from './common';

/** Whether a command's first argument names a store this module serves. */
export const isStoreUrl = (arg: string | undefined): boolean =>
  /^(s3|redis|rediss|postgres|postgresql):\/\//.test(arg ?? '');

interface Opened {
  store: LockStore;
  /** The lock's name in the store (status, release, run). */
  name?: string;
  close(): Promise<void>;
  acquire?(o: RunOptions): Promise<HeldLock>;
}

interface RunOptions {
  ttlMs: number;
  timeoutMs?: number;
  identity?: string;
  purpose?: string;
  signal: AbortSignal;
  onWait?: (holder: LockInfo) => void;
}

async function openStore(
  url: string,
  name: string | undefined,
  o: { wantName: boolean; longHeldMs?: number },
): Promise<Opened> {
  if (url.startsWith('s3://')) {
    const target = o.wantName ? parseS3Args(url, name) : parseS3Args(url, undefined, false);
    const { S3LockStore, acquireS3Lock } = await import('../lock/stores/s3');
    const client = await s3Client();
    const store = new S3LockStore({
      client,
      bucket: target.bucket,
      prefix: o.wantName ? '' : target.prefix,
      longHeldMs: o.longHeldMs,
    });
    return {
      store,
      name: target.key,
      close: async () => client.destroy(),
      async acquire(run) {
        const lock = await acquireS3Lock({ client, bucket: target.bucket, name: target.key!, ...run });
        return {
          name: `s3://${target.bucket}/${target.key}`,
          token: lock.fencingToken,
          signal: lock.signal,
          async releaseWith(details) {
            const outcome = await lock.release();
            await store
              .record({ event: 'released', lock: target.key!, generation: lock.fencingToken, ...details })
              .catch(() => undefined);
            return { outcome: outcome === 'released' ? 'released' : 'lost' };
          },
        };
      },
    };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, name, o);
  return openRedis(url, name, o);
}

/** A pg Client for a postgres:// source (PG* variables fill what the URL lacks). */
export async function pgClient(url: string): Promise<{ client: import('pg').Client; display: string }> {
  const { parsePostgresSource } = await import('../lock/stores/postgres/source');
  let display: string;
  try {
    display = parsePostgresSource(url).display;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  let pg: typeof import('pg');
  try {
    pg = (await import('pg')).default as unknown as typeof import('pg');
  } catch {
    throw new UsageError('postgres:// sources need the PostgreSQL client: npm install pg');
  }
  const client = new pg.Client({
    connectionString: url,
    application_name: 'lockboard',
    connectionTimeoutMillis: 5_000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    throw Object.assign(new Error(`Cannot reach ${display}: ${(err as Error).message}`), { code: 'ECONNREFUSED' });
  }
  return { client, display };
}

async function openPostgres(
  url: string,
  name: string | undefined,
  o: { wantName: boolean; longHeldMs?: number },
): Promise<Opened> {
  if (o.wantName && !name)
    throw new UsageError('Name the lock after the source: postgres://host:5432/db NAME (e.g. advisory:72707369).');
  const { client, display } = await pgClient(url);
  const { PostgresLockStore, acquirePgLock } = await import('../lock/stores/postgres');
  const store = new PostgresLockStore({ client, source: display, longHeldMs: o.longHeldMs });
  return {
    store,
    name,
    close: async () => {
      await client.end().catch(() => undefined);
    },
    async acquire(run) {
      const lock = await acquirePgLock({
        client,
        name: name!,
        identity: run.identity,
        purpose: run.purpose,
        timeoutMs: run.timeoutMs,
        signal: run.signal,
      });
      return {
        name: `${display} ${name}`,
        token: lock.fencingToken,
        signal: lock.signal,
        async releaseWith(details) {
          const outcome = await lock.release(
            details.outcome === 'error' ? { problem: 'ExitCode', details: details.error ?? '' } : undefined,
          );
          return { outcome: outcome === 'released' ? 'released' : 'lost' };
        },
      };
    },
  };
}

async function openRedis(
  url: string,
  name: string | undefined,
  o: { wantName: boolean; longHeldMs?: number },
): Promise<Opened> {
  const { parseRedisSource } = await import('../lock/stores/redis/source');
  let source;
  try {
    source = parseRedisSource(url, process.env);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (o.wantName && !name) throw new UsageError(`Name the lock after the source: ${source.display} KEY.`);
  let redis: typeof import('redis');
  try {
    redis = await import('redis');
  } catch {
    throw new UsageError('redis:// sources need the Redis client: npm install redis');
  }
  const client = redis.createClient({ url: source.url, socket: { connectTimeout: 5_000, reconnectStrategy: false } });
  client.on('error', () => {}); // a failed connect is reported by connect() itself
  try {
    await client.connect();
  } catch (err) {
    throw Object.assign(new Error(`Cannot reach ${source.display}: ${(err as Error).message}`), {
      code: 'ECONNREFUSED',
    });
  }
  const { RedisLockStore, acquireRedisLock } = await import('../lock/stores/redis');
  const store = new RedisLockStore({ client, match: source.match, source: source.display, longHeldMs: o.longHeldMs });
  return {
    store,
    name,
    close: async () => {
      await client.quit().catch(() => undefined);
    },
    async acquire(run) {
      const lock = await acquireRedisLock({ client, name: name!, ...run });
      return {
        name: `${source.display} ${name}`,
        token: lock.fencingToken,
        signal: lock.signal,
        async releaseWith(details) {
          const outcome = await lock.release();
          await store
            .record({ event: 'released', lock: name!, generation: lock.fencingToken, ...details })
            .catch(() => undefined);
          return { outcome: outcome === 'released' ? 'released' : 'lost' };
        },
      };
    },
  };
}

export interface S3Target {
  bucket: string;
  /** The source prefix, or the whole key when `key` is set. */
  prefix: string;
  key?: string;
}

/** `s3://bucket/prefix` (+ an optional NAME under it) or a whole `s3://bucket/key`. */
export function parseS3Args(url: string, name?: string, wantKey = true): S3Target {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) throw new UsageError(`Expected s3://BUCKET/PREFIX with a valid bucket name, got ${JSON.stringify(url)}.`);
  const [, bucket, rest = ''] = m;
  if (!wantKey) return { bucket: bucket!, prefix: rest };
  if (name !== undefined) return { bucket: bucket!, prefix: rest, key: name.startsWith(rest) ? name : rest + name };
  if (!rest || rest.endsWith('/'))
    throw new UsageError(`${url} names a prefix, not a lock: use s3://${bucket}/KEY or add the lock name after it.`);
  return { bucket: bucket!, prefix: '', key: rest };
}

export async function s3Client(): Promise<S3Client> {
  let sdk: typeof import('@aws-sdk/client-s3');
  try {
    sdk = await import('@aws-sdk/client-s3');
  } catch {
    throw new UsageError('s3:// sources need the AWS SDK: npm install @aws-sdk/client-s3');
  }
  const endpoint = process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
  const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? (endpoint ? 'us-east-1' : undefined);
  if (!region) throw new UsageError('No AWS region: set AWS_REGION (e.g. AWS_REGION=eu-west-1).');
  return new sdk.S3Client({
    region,
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    ...(endpoint && !process.env.AWS_ACCESS_KEY_ID
      ? { credentials: { accessKeyId: 'lockboard', secretAccessKey: 'lockboard' } }
      : {}),
  });
}

export async function storeLs(url: string, json: boolean, longHeldMs?: number): Promise<number> {
  const opened = await openStore(url, undefined, { wantName: false, longHeldMs });
  const store = opened.store;
  const list = await store.list().finally(() => opened.close());
  if (json) {
    console.log(
      JSON.stringify(
        { serverTime: list.serverTime, source: store.source, locks: list.locks, skipped: list.skipped },
        null,
        2,
      ),
    );
    return EXIT.ok;
  }
  const skippedLine = `${list.skipped} other object${list.skipped === 1 ? '' : 's'} skipped (data or not a recognised lock).`;
  if (list.locks.length === 0) {
    console.log(`No locks under ${store.source}${list.skipped ? `; ${skippedLine}` : ''}`);
    return EXIT.ok;
  }
  const now = Date.parse(list.serverTime);
  const rows = list.locks.map((l) => [
    l.name,
    l.health,
    l.identity ?? '-',
    formatDuration(l.heldMs),
    l.expiresAt ? formatDuration(Math.max(0, Date.parse(l.expiresAt) - now)) : 'never',
    l.version,
    l.format,
  ]);
  const header = ['NAME', 'HEALTH', 'OWNER', 'HELD FOR', 'EXPIRES IN', 'VERSION', 'FORMAT'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const row of [header, ...rows])
    console.log(
      row
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
  if (list.skipped) console.log(skippedLine);
  return EXIT.ok;
}

export async function storeStatus(url: string, name: string | undefined, json: boolean): Promise<number> {
  const opened = await openStore(url, name, { wantName: true });
  const lock = await opened.store.inspect(opened.name!).finally(() => opened.close());
  const held = lock !== null && lock.releasable && lock.health !== 'expired' && lock.health !== 'free';
  const code = lock && !lock.releasable ? EXIT.notALock : held ? EXIT.ok : EXIT.free;
  if (json) {
    console.log(JSON.stringify(lock, null, 2));
    return code;
  }
  if (!lock) {
    console.log(`${opened.name}: free (nothing there in ${opened.store.source})`);
    return EXIT.free;
  }
  printFields(lock);
  return code;
}

function printFields(lock: LockView): void {
  const fields: [string, string | undefined][] = [
    ['lock', lock.store === 's3' ? `s3://${lock.bucket}/${lock.name}` : `${lock.source} ${lock.name}`],
    ['health', lock.releasable ? lock.health : 'not a lock (never released by Lockboard)'],
    ['identity', lock.identity],
    ['format', `${lock.formatLabel} (${lock.format})`],
    ...lock.details.map(([k, v]): [string, string] => [k.toLowerCase(), v]),
    ['note', lock.note],
    ['held for', formatDuration(lock.heldMs)],
    ['last write', lock.store === 's3' ? lock.updatedAt : undefined],
    ['expires at', lock.expiresAt ?? 'never (no TTL: only an operator can clear it)'],
    ['version', `${lock.version} (${lock.versionLabel}); release with --version ${lock.version}`],
    ['releasing', lock.releaseNote],
  ];
  const width = Math.max(...fields.map(([k]) => k.length)) + 1;
  for (const [k, v] of fields) if (v !== undefined) console.log(`${k.padEnd(width)} ${v}`);
}

export async function storeRelease(
  url: string,
  name: string | undefined,
  o: { version?: string; reason: string; operator: string; json: boolean },
): Promise<number> {
  const s3 = url.startsWith('s3://');
  const pgSource = /^postgres(ql)?:\/\//.test(url);
  const shape = s3 ? /^[0-9a-f]{32}\.\d{1,16}$/ : pgSource ? /^[^\s]{1,2000}$/ : /^[0-9a-f]{16}$/;
  if (!o.version || !shape.test(o.version)) {
    const store = s3 ? 's3' : pgSource ? 'postgres' : 'redis';
    throw new UsageError(`--version is required for ${store}:// locks: the version "lockboard status --json" shows.`);
  }
  const opened = await openStore(url, name, { wantName: true });
  const result = await opened.store
    .forceRelease({ name: opened.name!, version: o.version, reason: o.reason, operator: o.operator })
    .finally(() => opened.close());
  if (o.json) console.log(JSON.stringify(result, null, 2));
  else {
    const where = s3
      ? `${opened.store.source.replace(/\/[^/]*$/, '/')}${opened.name}`
      : `${opened.store.source} ${opened.name}`;
    const holder = result.current?.identity ?? 'another holder';
    console.log(
      {
        released: `Released ${where} (version ${o.version}).`,
        changed: `Refused: ${where} changed since you looked; it is now held by ${holder}. Nothing was deleted.`,
        refreshed: `Refused: the holder of ${where} wrote it again since you looked, so it is alive. Nothing was deleted.`,
        gone: `${where} was already gone.`,
        'not-a-lock': `Refused: ${where} is not a lock Lockboard recognises, so it is never deleted. Nothing was deleted.`,
      }[result.outcome],
    );
    if (result.audit.length) console.log(`Audit: ${result.audit.join(', ')}`);
  }
  if (result.outcome === 'released') return EXIT.ok;
  if (result.outcome === 'not-a-lock') return EXIT.notALock;
  return result.outcome === 'gone' ? EXIT.gone : EXIT.refused;
}

/** What `lockboard run` needs of a held lock, whatever the store. */
export interface HeldLock {
  name: string;
  token: string;
  signal: AbortSignal;
  releaseWith(details: { outcome: 'ok' | 'error'; error?: string }): Promise<{ outcome: string }>;
}

export async function acquireStoreForRun(url: string, name: string | undefined, o: RunOptions): Promise<HeldLock> {
  const opened = await openStore(url, name, { wantName: true });
  try {
    const held = await opened.acquire!(o);
    return {
      ...held,
      async releaseWith(details) {
        try {
          return await held.releaseWith(details);
        } finally {
          await opened.close();
        }
      },
    };
  } catch (err) {
    await opened.close();
    throw err;
  }
}
