// Redis in the registry: redis://[user:pass@]host:port/db?match=PATTERN (rediss:// for TLS; REDISCLI_AUTH for a
// password the URL lacks), node-redis loaded when a source is opened. The console's connection reconnects by itself;
// the CLI's fails fast and is closed with the store.
import { holdOn, missingSdk, runOptions, type OpenOptions, type SourceSpec, type StoreDefinition } from '../types';
import type { RedisClientLike } from './conn';
import { parseRedisSource } from './source';
import { REDIS_VERSION } from './version';
import { redisDiscovery } from './discover';
import { redisFormats } from './lock-formats';

async function connect(spec: SourceSpec, o: OpenOptions) {
  let redis: typeof import('redis');
  try {
    redis = await import('redis');
  } catch {
    throw missingSdk('redis:// sources', 'redis');
  }
  const client = redis.createClient({
    url: spec.url,
    socket: { connectTimeout: 5_000, ...(o.role === 'cli' ? { reconnectStrategy: false as const } : {}) },
  });
  client.on('error', () => {}); // after the first connection the console's client reconnects by itself
  // the first connection must succeed or fail: node-redis would otherwise retry it forever, and every request for
  // this source (a listing, a metrics scrape) would wait with it
  const refused = new Promise<never>((_, reject) => client.once('error', reject));
  try {
    await Promise.race([client.connect(), refused]);
  } catch (err) {
    client.destroy();
    throw Object.assign(new Error(`Cannot reach ${spec.id}: ${(err as Error).message}`), { code: 'ECONNREFUSED' });
  }
  const close = async () => {
    // QUIT waits for the server: while the connection is down (reconnecting) it would wait forever
    if (!client.isReady) return void client.destroy();
    await client.quit().catch(() => client.disconnect().catch(() => undefined));
  };
  return { client: client as unknown as RedisClientLike, close };
}

export const redis: StoreDefinition = {
  kind: 'redis',
  formats: redisFormats,
  label: 'Redis',
  versionShape: REDIS_VERSION,
  watchIntervalMs: 1_000,
  schemes: ['redis', 'rediss'],
  form: 'redis://HOST:PORT/DB?match=PATTERN',
  discover: redisDiscovery(connect),
  hold: async () => (await import('./hold')).redisHolds(connect),
  parse(url, env) {
    const r = parseRedisSource(url, env);
    const bucketId = r.display.replace(/\?.*$/, '');
    return { kind: 'redis', id: r.display, bucket: bucketId, bucketId, prefix: '', url: r.url, match: r.match };
  },
  async open(spec, o) {
    const [{ RedisLockStore }, { client, close }] = await Promise.all([import('./store'), connect(spec, o)]);
    const db = Number(/\/(\d+)$/.exec(spec.url)?.[1] ?? 0);
    return new RedisLockStore({ client, match: spec.match, source: spec.id, db, longHeldMs: o.longHeldMs, close });
  },
  async acquire(spec, name, o) {
    const [{ acquireRedisLock }, { RedisLockStore }, { client, close }] = await Promise.all([
      import('./acquire'),
      import('./store'),
      connect(spec, o),
    ]);
    const trail = new RedisLockStore({ client, source: spec.id });
    return holdOn({
      name: `${spec.id} ${name}`,
      close,
      acquire: () => acquireRedisLock({ client, name, ...runOptions(o) }),
      async release(lock, details) {
        const outcome = await lock.release();
        await trail
          .record({ event: 'released', lock: name, generation: lock.fencingToken, ...details })
          .catch(() => '');
        return outcome;
      },
    });
  },
};
