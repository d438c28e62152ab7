// Run by test/redis/index-memory.test.ts in a Node process of its own (`node --expose-gc --import tsx`), so nothing
// else lives in the heap it measures: the bytes a lock the console's index of a Redis source costs (V8's heap plus
// the typed arrays), after a cold pass and after two more. Prints one JSON line.
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { createClient } from 'redis';
import { indexRedis } from './scale';

const [url, locks] = [process.argv[2]!, Number(process.argv[3])];
const gc = (globalThis as { gc?: () => void }).gc!;
const used = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const client = await createClient({ url }).connect();
const store = new RedisLockStore({ client: client as never, source: 'redis://127.0.0.1/0' });
await store.list(); // the client's and the store's one-off costs before the baseline
const before = used();
const { index } = await indexRedis(store);
const cold = (used() - before) / locks;
await indexRedis(store, undefined, index);
await indexRedis(store, undefined, index);
const after = (used() - before) / locks;
console.log(JSON.stringify({ rows: index.size, cold, after }));
await client.quit();
