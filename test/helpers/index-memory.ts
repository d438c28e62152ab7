// Run by indexBytesPerLock (scale.ts) in a Node process of its own (`node --expose-gc --import tsx`), so nothing
// else lives in the heap it measures: the bytes a lock the console's index of a Redis source costs (V8's heap plus
// the typed arrays), after a cold pass and after more (two unless told), and the process's heap and RSS then. Its
// views are judged, as the console's are, unless told `raw` (the store's own class: views without verdicts, the
// baseline a verdict's cost is measured against). Prints one JSON line.
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { RedisLockStore as RawRedisLockStore } from '@/lib/lock/stores/redis/store';
import { createClient } from 'redis';
import { indexRedis } from './scale';

const [url, locks, passes] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4] ?? 2)];
const raw = process.argv[5] === 'raw';
const gc = (globalThis as { gc?: () => void }).gc!;
/** After full collections, and time for freed array buffers to be released (that sweep runs after the collection). */
const used = async () => {
  gc();
  await new Promise((done) => setTimeout(done, 200));
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const client = await createClient({ url }).connect();
const storeOf = () => {
  const o = { client: client as never, source: 'redis://127.0.0.1/0' };
  return raw ? new RawRedisLockStore(o) : new RedisLockStore(o);
};
// one listing by a store of its own first: the client's and the code's one-off costs stay out of the baseline
await storeOf().list();
const store = storeOf();
const before = await used();
const { index } = await indexRedis(store as RedisLockStore);
const cold = ((await used()) - before) / locks;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const indexed = { heapMb: mb(process.memoryUsage().heapUsed), rssMb: mb(process.memoryUsage().rss) };
for (let pass = 0; pass < passes; pass++) await indexRedis(store as RedisLockStore, undefined, index);
const after = ((await used()) - before) / locks;
const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(JSON.stringify({ rows: index.size, cold, after, ...indexed, peakRssMb }));
await client.quit();
