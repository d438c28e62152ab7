// Emulator throughput through the official client, and listing time for 1k/10k/100k objects.
import { Storage } from '@google-cloud/storage';
import { startEmulator } from '@/lib/emulator';
import { printTable, quantile, round, writeJson } from './report';

const CONCURRENCY = 16;
const OPS = 2000;

async function timed(count: number, op: (i: number) => Promise<unknown>): Promise<number> {
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await op(next++);
    }),
  );
  return count / ((performance.now() - start) / 1000);
}

export async function benchEmulator() {
  const emulator = await startEmulator({ buckets: ['bench'] });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'bench', retryOptions: { autoRetry: false } });
  const b = storage.bucket('bench');
  const gens: string[] = [];
  const rps = {
    create: await timed(OPS, async (i) => {
      const f = b.file(`obj/${i}`);
      await f.save('{}', { resumable: false, preconditionOpts: { ifGenerationMatch: 0 } });
      gens[i] = String(f.metadata.generation);
    }),
    get: await timed(OPS, (i) => b.file(`obj/${i}`).getMetadata()),
    patch: await timed(OPS, (i) =>
      b
        .file(`obj/${i}`)
        .setMetadata({ metadata: { k: 'v' } }, { ifGenerationMatch: gens[i], ifMetagenerationMatch: 1 }),
    ),
    list: await timed(200, () => b.getFiles({ prefix: 'obj/', maxResults: 1000, autoPaginate: false })),
    delete: await timed(OPS, (i) => b.file(`obj/${i}`).delete({ ifGenerationMatch: gens[i] })),
  };
  printTable(
    `Emulator requests per second (official client, ${CONCURRENCY} concurrent)`,
    Object.entries(rps).map(([op, v]) => ({ operation: op, 'requests/s': round(v, 0) })),
  );

  const listing = [];
  for (const size of [1_000, 10_000, 100_000]) {
    emulator.store.createBucket(`list-${size}`, false, Date.now());
    for (let i = 0; i < size; i++)
      emulator.store.insertObject(
        `list-${size}`,
        `locks/${String(i).padStart(6, '0')}`,
        Buffer.from('{}'),
        {},
        {},
        Date.now(),
      );
    emulator.store.insertObject(`list-${size}`, 'other/x', Buffer.alloc(0), {}, {}, Date.now());
    const lb = storage.bucket(`list-${size}`);
    const firstPage: number[] = [];
    const midPage: number[] = [];
    const [, mid] = await lb.getFiles({
      prefix: 'locks/',
      startOffset: `locks/${String(Math.floor(size / 2)).padStart(6, '0')}`,
      maxResults: 1,
      autoPaginate: false,
    });
    for (let i = 0; i < 10; i++) {
      let s = performance.now();
      await lb.getFiles({ prefix: 'locks/', maxResults: 1000, autoPaginate: false });
      firstPage.push(performance.now() - s);
      s = performance.now();
      await lb.getFiles({ ...mid!, maxResults: 1000, autoPaginate: false });
      midPage.push(performance.now() - s);
    }
    listing.push({
      objects: size,
      'first page of 1000, median ms': round(quantile(firstPage, 0.5)),
      'middle page of 1000, median ms': round(quantile(midPage, 0.5)),
    });
  }
  printTable('Emulator listing time (one page of 1 000 through the official client)', listing);
  await emulator.close();
  const result = { requestsPerSecond: rps, listing };
  writeJson('emulator', result);
  return result;
}
