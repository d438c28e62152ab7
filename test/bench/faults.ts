// npm run bench -- faults: a whole-bucket GCS source's listing while its audit trail grows. Lockboard lists around
// the trail (two ranges of one listing); the baseline is the plain whole-bucket listing a user would otherwise run
// (every object under the bucket, the trail included, as Lockboard itself did before). List calls and time per full
// listing, from the emulator's request log.
import { randomBytes } from 'node:crypto';
import { startEmulator } from '@/lib/emulator';
import { acquireLock, auditObjectName } from '@/lib/lock';
import { listLocks } from '@/lib/lock/stores/gcs/list';
import { GcsLockStore } from '@/lib/lock/stores/gcs/store';
import { Storage } from '@google-cloud/storage';
import { printTable, round, writeJson } from './report';

const AUDIT = '.lockboard/audit/';
const LOCKS = 200;
const TRAIL = [0, 2_000, 10_000, 40_000];
const RUNS = 3;

async function timed(fn: () => Promise<number>): Promise<{ ms: number; locks: number }> {
  let best = Infinity;
  let locks = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    locks = await fn();
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, locks };
}

export async function benchFaults() {
  const emulator = await startEmulator({ buckets: ['whole'] });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'bench' });
  for (let i = 0; i < LOCKS; i++)
    await acquireLock({
      storage,
      bucket: 'whole',
      name: `locks/${i}`,
      identity: `w${i}`,
      ttlMs: 600_000,
      audit: false,
    });
  const store = new GcsLockStore({ storage, bucket: 'whole', prefix: '', auditPrefix: AUDIT });
  const around = async () => {
    let n = 0;
    let token: string | undefined;
    do {
      const page = await store.list(token);
      n += page.locks.length;
      token = page.nextPageToken;
    } while (token);
    return n;
  };
  const plain = async () => {
    let n = 0;
    let token: string | undefined;
    do {
      const page = await listLocks({ storage, bucket: 'whole', prefix: '', pageToken: token });
      n += page.locks.filter((l) => !l.name.startsWith(AUDIT)).length;
      token = page.nextPageToken;
    } while (token);
    return n;
  };
  const lists = () => emulator.requests.entries.filter((e) => e.method === 'GET' && e.path.endsWith('/o')).length;
  const rows: Record<string, string | number>[] = [];
  let seeded = 0;
  const now = Date.now();
  for (const trail of TRAIL) {
    for (; seeded < trail; seeded++)
      emulator.store.insertObject('whole', auditObjectName(AUDIT, now - seeded), randomBytes(8), {}, {}, now);
    for (const [how, fn] of [
      ['around the trail (Lockboard)', around],
      ['whole bucket (baseline)', plain],
    ] as const) {
      emulator.requests.clear();
      const { ms, locks } = await timed(fn);
      rows.push({ 'audit events': trail, listing: how, locks, 'list calls': lists() / RUNS, 'best ms': round(ms) });
    }
  }
  await emulator.close();
  printTable(`Whole-bucket listing of ${LOCKS} locks while the audit trail grows (best of ${RUNS})`, rows);
  writeJson('faults', { locks: LOCKS, runs: RUNS, rows });
  return rows;
}
