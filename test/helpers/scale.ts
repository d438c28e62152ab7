// Many locks in a real Redis, and the console's index of them: shared by the scale bench and its CI-sized test.
// The locks are redis-py's (`SET name token NX PX ttl`: a 32-hex token), beside as many keys that are not locks.
import { execFileSync } from 'node:child_process';
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { LockIndex } from '@/lib/lock/query/lock-index';

type Client = { sendCommand(args: string[]): Promise<unknown> };

/** Writes `locks` redis-py locks (`lock:<i>`) and as many cache keys, pipelined in batches. */
export async function fillRedis(client: Client, locks: number): Promise<void> {
  const BATCH = 2_500; // 5 000 commands in flight: well inside the client's 5 s command timeout on a busy machine
  for (let start = 0; start < locks; start += BATCH) {
    const sends: Promise<unknown>[] = [];
    for (let i = start; i < Math.min(locks, start + BATCH); i++) {
      const token = (i * 2654435761).toString(16).padStart(32, '0').slice(-32);
      // a tenth expire within the hour, the rest are held for a day: health spreads over the set
      sends.push(client.sendCommand(['SET', `lock:${i}`, token, 'PX', String(i % 10 ? 86_400_000 : 3_600_000)]));
      sends.push(client.sendCommand(['SET', `cache:${i}`, `{"user":${i},"plan":"pro"}`]));
    }
    await Promise.all(sends);
  }
}

/** The bare baseline a user would write: SCAN every key, then pipelined GET and PTTL of each batch. */
export async function bareScan(client: Client): Promise<{ keys: number; ms: number }> {
  const started = performance.now();
  let cursor = '0';
  let keys = 0;
  do {
    const [next, batch] = (await client.sendCommand(['SCAN', cursor, 'COUNT', '1000'])) as [string, string[]];
    await Promise.all(batch.flatMap((k) => [client.sendCommand(['GET', k]), client.sendCommand(['PTTL', k])]));
    keys += batch.length;
    cursor = String(next);
  } while (cursor !== '0');
  return { keys, ms: performance.now() - started };
}

/** The console's index of the source (a cold one unless `index` is given), page by page, as its watcher walks it. */
export async function indexRedis(
  store: RedisLockStore,
  onPage?: (index: LockIndex, listed: number) => void,
  index = new LockIndex(),
): Promise<{ index: LockIndex; ms: number; firstPageMs: number; pages: number }> {
  const started = performance.now();
  let firstPageMs = 0;
  let token: string | undefined;
  let pages = 0;
  let listed = 0;
  index.beginPass();
  do {
    const page = await store.list(token);
    const now = store.now();
    for (const lock of page.locks) index.upsert(lock, now);
    listed += page.locks.length + page.skipped;
    pages++;
    if (pages === 1) firstPageMs = performance.now() - started;
    onPage?.(index, listed);
    token = page.nextPageToken;
  } while (token);
  index.endPass();
  return { index, ms: performance.now() - started, firstPageMs, pages };
}

/** What indexing a Redis source cost, in a process of its own (index-memory.ts). */
export interface IndexMemory {
  rows: number;
  /** Bytes a lock (V8's heap and typed arrays, after full collections) after the cold pass, and after the others. */
  cold: number;
  after: number;
  /** The process's heap and RSS once the cold pass is done, and its peak RSS (MB). */
  heapMb: number;
  rssMb: number;
  peakRssMb: number;
}

/**
 * What the console's index of the Redis at `url` costs, measured in a Node process of its own (index-memory.ts):
 * after a cold pass, and after `passes` more; of judged views (the console's) unless `raw` (no verdicts).
 */
export function indexBytesPerLock(url: string, locks: number, passes = 2, raw = false): IndexMemory {
  const out = execFileSync(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      'test/helpers/index-memory.ts',
      url,
      String(locks),
      String(passes),
      ...(raw ? ['raw'] : []),
    ],
    { encoding: 'utf8', timeout: 1_800_000, maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as IndexMemory;
}
