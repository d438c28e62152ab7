// Run by indexBytesPerLock (scale.ts) in a Node process of its own (`node --expose-gc --import tsx`), so nothing
// else lives in the heap it measures: the bytes a lock the console's index of a Redis source costs (V8's heap plus
// the typed arrays), after a cold pass and after more (two unless told). Prints one JSON line.
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { createClient } from 'redis';
import { indexRedis } from './scale';

const [url, locks, passes] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4] ?? 2)];
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
// one listing by a store of its own first: the client's and the code's one-off costs stay out of the baseline
await new RedisLockStore({ client: client as never, source: 'redis://127.0.0.1/0' }).list();
const store = new RedisLockStore({ client: client as never, source: 'redis://127.0.0.1/0' });
const before = await used();
const { index } = await indexRedis(store);
const cold = ((await used()) - before) / locks;
for (let pass = 0; pass < passes; pass++) await indexRedis(store, undefined, index);
const after = ((await used()) - before) / locks;
console.log(JSON.stringify({ rows: index.size, cold, after }));
await client.quit();
