// This lock core against two baselines, in one run against the same emulator (write-rate limit on): 1, 4 and 8
// contenders on one lock name, each holding ~50 ms. Handover latency (release → next acquire), requests and writes
// per acquisition, and 429s seen.
import { Storage } from '@google-cloud/storage';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { acquireLock, GcsCallError, LockTimeoutError } from '@/lib/lock';
import { exponentialAcquire, fixedSleepAcquire, type SimpleLock } from './baselines';
import { printTable, quantile, round, writeJson } from './report';

const DURATION_MS = Number(process.env.BENCH_LOCK_DURATION_MS ?? 10_000);
const HOLD_MS = 50;

type Acquire = (storage: Storage, bucket: string, name: string, deadline: number) => Promise<SimpleLock | null>;

const IMPLEMENTATIONS: Record<string, Acquire> = {
  lockboard: async (storage, bucket, name, deadline) => {
    try {
      const lock = await acquireLock({
        storage,
        bucket,
        name,
        ttlMs: 30_000,
        audit: false,
        timeoutMs: Math.max(1, deadline - performance.now()),
      });
      return { release: async () => void (await lock.release()) };
    } catch (err) {
      if (err instanceof LockTimeoutError) return null;
      // the scenario's deadline came while the last attempt met the write-rate limit (429): the contender stops,
      // and the 429s are counted from the request log like every other
      if (err instanceof GcsCallError && err.status === 429) return null;
      throw err;
    }
  },
  'fixed 5 s sleep': fixedSleepAcquire,
  'uncapped exp. backoff': exponentialAcquire,
};

async function scenario(emulator: Emulator, impl: string, contenders: number) {
  const name = `locks/bench-${impl.replace(/\W+/g, '-')}-${contenders}`;
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'bench' });
  emulator.requests.clear();
  const handovers: number[] = [];
  let lastRelease: number | null = null;
  let acquisitions = 0;
  let errors = 0;
  const end = performance.now() + DURATION_MS;
  await Promise.all(
    Array.from({ length: contenders }, async () => {
      while (performance.now() < end) {
        const lock = await IMPLEMENTATIONS[impl]!(storage, 'bench', name, end);
        if (!lock) break;
        const acquiredAt = performance.now();
        if (lastRelease !== null) handovers.push(acquiredAt - lastRelease);
        acquisitions++;
        await new Promise((r) => setTimeout(r, HOLD_MS));
        lastRelease = performance.now();
        await lock.release().catch(() => errors++);
      }
    }),
  );
  const entries = emulator.requests.entries.filter(
    (e) => e.path.includes(encodeURIComponent(name)) || e.query.name === name,
  );
  const writes = entries.filter((e) => e.method !== 'GET').length;
  return {
    implementation: impl,
    contenders,
    acquisitions,
    'handover p50 ms': round(quantile(handovers, 0.5)),
    'handover p99 ms': round(quantile(handovers, 0.99)),
    'requests/acq': round(entries.length / Math.max(1, acquisitions), 2),
    'writes/acq': round(writes / Math.max(1, acquisitions), 2),
    '429s': entries.filter((e) => e.status === 429).length,
    'release errors': errors,
  };
}

export async function benchLockCore() {
  const emulator = await startEmulator({ buckets: ['bench'], faults: { rateLimit: { enabled: true } } });
  const rows = [];
  for (const contenders of [1, 4, 8]) {
    for (const impl of Object.keys(IMPLEMENTATIONS)) rows.push(await scenario(emulator, impl, contenders));
  }
  await emulator.close();
  printTable(
    `Lock core vs baselines (${DURATION_MS / 1000} s per scenario, hold ${HOLD_MS} ms, write-rate limit on)`,
    rows,
  );
  writeJson('lock-core', { durationMs: DURATION_MS, holdMs: HOLD_MS, rows });
  return rows;
}
