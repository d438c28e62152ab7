// Single-waiter handover: a holder keeps a lock for 5, 15 or 30 s while one waiter re-checks it; we measure the
// time from the holder's release to the waiter's acquisition and the waiter's reads per second. Every pair uses
// its own lock name and they all run at once, so the whole benchmark takes about as long as the longest wait.
import { Storage } from '@google-cloud/storage';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { acquireLock } from '@/lib/lock';
import { printTable, quantile, round, writeJson } from './report';

const WAITS_MS = [5_000, 15_000, 30_000];
const PAIRS = Number(process.env.BENCH_HANDOVER_PAIRS ?? 20);

async function pair(emulator: Emulator, storage: Storage, name: string, waitMs: number) {
  const options = { storage, bucket: 'bench', name, ttlMs: 60_000, audit: false as const };
  const holder = await acquireLock(options);
  const waiting = acquireLock({ ...options, timeoutMs: waitMs + 30_000 });
  const waitStarted = performance.now();
  await new Promise((r) => setTimeout(r, waitMs));
  const releasedAt = performance.now();
  await holder.release();
  const waiter = await waiting;
  const acquiredAt = performance.now();
  const reads = emulator.requests.count((e) => e.method === 'GET' && e.path.endsWith(`/o/${encodeURIComponent(name)}`));
  await waiter.release();
  return { handoverMs: acquiredAt - releasedAt, readsPerSecond: reads / ((acquiredAt - waitStarted) / 1000) };
}

export async function benchHandover() {
  const emulator = await startEmulator({ buckets: ['bench'] });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'bench' });
  const results = await Promise.all(
    WAITS_MS.map(async (waitMs) => ({
      waitMs,
      samples: await Promise.all(
        Array.from({ length: PAIRS }, (_, i) => pair(emulator, storage, `locks/handover-${waitMs}-${i}`, waitMs)),
      ),
    })),
  );
  await emulator.close();
  const rows = results.map(({ waitMs, samples }) => {
    const handovers = samples.map((s) => s.handoverMs);
    const reads = samples.map((s) => s.readsPerSecond);
    return {
      'waited s': waitMs / 1000,
      pairs: samples.length,
      'handover p50 ms': round(quantile(handovers, 0.5)),
      'handover p95 ms': round(quantile(handovers, 0.95)),
      'handover max ms': round(Math.max(...handovers)),
      'reads/s per waiter p50': round(quantile(reads, 0.5), 2),
      'reads/s per waiter max': round(Math.max(...reads), 2),
    };
  });
  printTable(`Single-waiter handover (no write-rate limit, ${PAIRS} pairs per wait, run at once)`, rows);
  writeJson('handover', { pairs: PAIRS, rows });
  return rows;
}
