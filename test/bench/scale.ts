// npm run bench -- scale: one Redis with N redis-py locks (and N keys that are not locks), indexed as the console's
// watcher does, at 10 000, 100 000 and 1 000 000 (SCALE_SIZES to choose). Per size: a cold full index against a bare
// SCAN + pipelined GET/PTTL of the same keys in the same run, time to the first page (a first screen), bytes per lock
// in the index, and the cost of the queries a page makes (first window, filter, sort, exact name, next window), each
// over every lock; the window's JSON size. The index's memory is measured in a process of its own
// (indexBytesPerLock), of the judged views the console keeps and of the raw views without verdicts beside them: bytes
// a lock, heap and RSS once indexed, peak RSS (SCALE_PASSES more passes before the bytes are read again: 0). Then
// GCS, S3 and DynamoDB at 100 000 locks each (scale-stores.ts), Azure at 100 000 blobs (scale-azure.ts) and MariaDB
// with 10 000 named locks and 100 000 ShedLock rows (scale-mysql.ts); SCALE_STORE_SIZE=0 to skip them. The Redis
// index is of the judged store, and answers `verdict=gone` too (redis-py locks: all unknown, so no row matches).
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { runQuery, type LockQuery } from '@/lib/lock/query/query';
import { rowView } from '@/lib/lock/query/row-view';
import { expand } from '@/lib/lock/query/row';
import { namesMatcher } from '@/lib/server/auth/glob';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { startRedis } from '../helpers/redis';
import { bareScan, fillRedis, indexBytesPerLock, indexRedis } from '../helpers/scale';
import { benchScaleStores } from './scale-stores';
import { benchScaleAzure } from './scale-azure';
import { benchScaleMysql } from './scale-mysql';
import { printTable, quantile, round, writeJson } from './report';

const SIZES = (process.env.SCALE_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const PASSES = Number(process.env.SCALE_PASSES ?? 0);

function timed<T>(fn: () => T, runs = 5): { ms: number; value: T } {
  const times: number[] = [];
  let value!: T;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    value = fn();
    times.push(performance.now() - started);
  }
  return { ms: quantile(times, 0.5), value };
}

export async function benchScale() {
  const rows: Record<string, string | number>[] = [];
  for (const n of SIZES) {
    const r = await startRedis();
    try {
      await fillRedis(r.client as never, n);
      const bare = await bareScan(r.client as never);
      // judged, as the registry opens every store (lib/lock/verdict/judged-store.ts)
      const store = judgedStore(new RedisLockStore({ client: r.client as never, source: 'redis://bench/0' }));
      const cold = await indexRedis(store as RedisLockStore);
      // measured in a process of its own: this one's heap holds the fill's and the bare scan's leftovers
      const judged = indexBytesPerLock(r.url, n, PASSES);
      const raw = indexBytesPerLock(r.url, n, PASSES, true);
      const ix = cold.index;
      const src = () => [
        { id: 'redis://bench/0', rows: ix.rows.values(), counts: ix.counts, verdicts: ix.verdicts, size: ix.size },
      ];
      const q = (o: Partial<LockQuery>) => runQuery(src(), { sort: 'name', order: 'asc', limit: 100, ...o });
      const first = timed(() => q({}));
      const filter = timed(() => q({ q: 'lock:4242' }));
      const owner = timed(() => q({ q: 'nobody-holds-this' }));
      const byHealth = timed(() => q({ sort: 'health', order: 'desc' }));
      const byExpiry = timed(() => q({ sort: 'expires' }));
      const byVerdict = timed(() => q({ verdict: 'gone' }));
      const exact = timed(() => q({ q: `lock:${n - 1}` }));
      const next = timed(() => q({ cursor: first.value.nextCursor! }));
      // a caller scoped by a grant to a tenth of the keys: the same window, counts over the scope (lib/server/auth)
      const names = namesMatcher(['redis://bench/0/lock:1*', 'redis://nowhere/*'], 'redis://bench/0/')!;
      const scopedSrc = () => src().map((s) => ({ ...s, within: (row: { name: string }) => names(row.name) }));
      const scoped = timed(() => runQuery(scopedSrc(), { sort: 'name', order: 'asc', limit: 100 }));
      const windowBytes = JSON.stringify(first.value.rows.map((x) => rowView(expand(x.row)))).length;
      rows.push({
        locks: n,
        keys: bare.keys,
        'bare SCAN+GET/PTTL s': round(bare.ms / 1000, 2),
        'cold index s': round(cold.ms / 1000, 2),
        ratio: round(cold.ms / bare.ms, 2),
        'first page ms': round(cold.firstPageMs),
        'B/lock raw / judged': `${Math.round(raw.cold)} / ${Math.round(judged.cold)}`,
        ...(PASSES
          ? { [`B/lock after ${PASSES} passes`]: `${Math.round(raw.after)} / ${Math.round(judged.after)}` }
          : {}),
        'heap MB raw / judged': `${raw.heapMb} / ${judged.heapMb}`,
        'RSS MB raw / judged': `${raw.rssMb} / ${judged.rssMb}`,
        'peak RSS MB raw / judged': `${raw.peakRssMb} / ${judged.peakRssMb}`,
        'window ms': round(first.ms),
        'filter ms': round(filter.ms),
        'no-match ms': round(owner.ms),
        'sort health ms': round(byHealth.ms),
        'sort expires ms': round(byExpiry.ms),
        'verdict=gone ms': round(byVerdict.ms),
        'exact ms': round(exact.ms),
        'next window ms': round(next.ms),
        'scoped window ms': round(scoped.ms),
        'window KB': round(windowBytes / 1024),
      });
      console.log(rows[rows.length - 1]);
    } finally {
      await r.stop();
    }
  }
  printTable('Scale: one Redis source, the console index (lib/server/index) vs a bare SCAN + GET/PTTL', rows);
  const stores = process.env.SCALE_STORE_SIZE === '0' ? [] : await benchScaleStores();
  if (stores.length) printTable('Scale: GCS, S3 and DynamoDB, the console index vs the bare listing', stores);
  const azure = process.env.SCALE_STORE_SIZE === '0' ? [] : await benchScaleAzure();
  if (azure.length) printTable('Scale: Azure on Azurite, the console index vs a bare listBlobsFlat', azure);
  const mysql = process.env.SCALE_STORE_SIZE === '0' ? [] : await benchScaleMysql();
  if (mysql.length) printTable('Scale: MariaDB, the console index vs a bare SELECT', mysql);
  writeJson('scale', { redis: rows, stores, azure, mysql });
}
