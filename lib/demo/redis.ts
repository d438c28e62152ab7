// The demo's Redis, when Debian's redis-server is installed: a server of its own (its trail kept) filled with locks
// of several formats (a SETNX lock whose holder crashed, python-redis-lock, Redisson, sidekiq-unique-jobs, Laravel),
// Lockboard Redis locks held by simulated holders (contenders, and one that crashes and expires), and cache keys and
// a counter beside them that are not locks. Keyspace notifications are on, so the console's Redis view is pushed.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'redis';
import { acquireRedisLock, withRedisLock } from '../lock/stores/redis';
import { background } from './background';
import { signalGroup, spawnGroup } from './children';
import { sleep } from './sleep';
import type { Stopper } from './stopper';

export interface DemoRedis {
  url: string;
  loops: Promise<void>[];
  stop(): Promise<void>;
  /** Ends the server at once (a stop past its deadline). */
  kill(): void;
}

const newClient = (url: string) => createClient({ url });
type RedisClient = ReturnType<typeof newClient>;

/**
 * redis-server on loopback, keyspace notifications on (the classes the Redis feed needs): changes are pushed. Its
 * data is kept in the demo's data directory (append-only file), so the audit trail outlives a restart as the other
 * stores' trails do; the seed clears every other key.
 */
function spawnRedis(port: number, dir: string | undefined): ChildProcess {
  if (dir) mkdirSync(dir, { recursive: true });
  const kept = dir ? ['--dir', dir, '--appendonly', 'yes'] : ['--appendonly', 'no'];
  return spawnGroup(
    'redis-server',
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...kept],
      ...['--notify-keyspace-events', 'Kg$hx'],
    ],
    { stdio: 'ignore' },
  );
}

async function connect(url: string, port: number, stop: Stopper): Promise<RedisClient> {
  const client = newClient(url);
  client.on('error', () => {});
  for (let i = 0; ; i++) {
    try {
      await client.connect();
      return client;
    } catch (err) {
      if (i > 50) throw new Error(`redis-server did not start on port ${port}: ${(err as Error).message}`);
      await sleep(100, stop.signal());
    }
  }
}

/** Every key of the last run but Lockboard's (its audit stream and claims): locks start afresh, the trail is kept. */
async function clearAllButTrail(client: RedisClient): Promise<void> {
  const keys: string[] = [];
  for await (const batch of client.scanIterator({ COUNT: 1000 })) keys.push(...[batch].flat());
  const gone = keys.filter((k) => !k.startsWith('lockboard:'));
  for (let i = 0; i < gone.length; i += 500) await client.sendCommand(['DEL', ...gone.slice(i, i + 500)]);
}

/** Locks of other libraries, written as each writes them, and keys that are not locks. */
async function seed(client: RedisClient): Promise<void> {
  const cmd = (...args: string[]) => client.sendCommand(args);
  await clearAllButTrail(client);
  await cmd('SET', 'lock.nightly-export', String(Date.now() / 1000 - 600)); // SETNX holder crashed 10 min ago
  await cmd('SET', 'lock:billing-sync', randomBytes(18).toString('base64'), 'EX', '300'); // python-redis-lock
  await cmd('HINCRBY', 'orders-reconcile', `${randomUUID()}:42`, '1'); // Redisson
  await cmd('PEXPIRE', 'orders-reconcile', '30000');
  const digest = `uniquejobs:${randomBytes(16).toString('hex')}`; // sidekiq-unique-jobs, no lock_ttl: never expires
  await cmd('SET', digest, 'jid-7f3a9c', 'NX');
  await cmd('HSET', `${digest}:LOCKED`, 'jid-7f3a9c', String(Date.now() / 1000 - 7200));
  await cmd('SET', 'laravel_database_laravel_cache_reports', randomBytes(8).toString('hex').slice(0, 16), 'EX', '600');
  await cmd('SET', 'cache:dashboard', '{"widgets":12}', 'EX', '3600'); // not locks
  await cmd('SET', 'stats:signups', '1042');
}

/** Three contenders on one Lockboard lock, and a holder that crashes every two minutes (its lock expires). */
function holders(client: RedisClient, stop: Stopper): Promise<void>[] {
  const loops = [0, 1, 2].map((i) =>
    background(`Redis contender indexer-${i}`, stop, async (signal) => {
      const identity = `indexer-${i}:${3000 + i}:${String(i).repeat(8)}`;
      const lock = { client, name: 'locks:search-reindex', identity, purpose: 'reindex', ttlMs: 10_000, signal };
      await withRedisLock(lock, () => sleep(2_000 + Math.random() * 2_000, signal)).catch(() => undefined);
      await sleep(1_000, signal);
    }),
  );
  loops.push(
    background('Redis holder warmup', stop, async (signal) => {
      const lock = await acquireRedisLock({
        client,
        name: 'locks:cache-warmup',
        identity: 'warmup:5150:deadbeef',
        ttlMs: 45_000,
        signal,
      }).catch(() => null);
      (lock as unknown as { stop?: () => void } | null)?.stop?.(); // crash: no refresh, no release
      await sleep(120_000, signal);
    }),
  );
  return loops;
}

/** Starts redis-server on `port` (its data kept under `dataDir` where given), or returns null (and says how to install it) when it is not installed. */
export async function startDemoRedis(port: number, stop: Stopper, dataDir?: string): Promise<DemoRedis | null> {
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    console.log(
      'Redis locks: redis-server is not installed, so the demo shows none (apt-get install -y redis-server).',
    );
    return null;
  }
  const server = spawnRedis(port, dataDir && join(dataDir, 'redis'));
  const url = `redis://127.0.0.1:${port}/0`;
  const client = await connect(url, port, stop).catch((err: unknown) => {
    signalGroup(server, 'SIGKILL');
    throw err;
  });
  await seed(client);
  return {
    url,
    loops: holders(client, stop),
    async stop() {
      await client.quit().catch(() => undefined);
      signalGroup(server, 'SIGTERM');
    },
    /** At once: the demo is stopping past its deadline. */
    kill() {
      signalGroup(server, 'SIGKILL');
    },
  };
}
