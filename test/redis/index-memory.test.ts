// What the console's index of a Redis source costs per lock (#34: RSS ≤ 1 GB at 1 000 000 locks): 100 000 redis-py
// locks among 200 000 keys, indexed as the watcher does in a process of its own (test/helpers/index-memory.ts), then
// listed again twice. V8's heap plus the typed arrays ("seen since" lives in them), after full collections: 926 bytes
// a lock (1 166 after the passes) before this bound, 386–429 after. The store's views are judged, as the console's
// are: with a sentence and evidence kept per lock, 811–841 (1 569 after the passes); with the verdict kept as one
// object shared by the locks read alike (#63: figures of the expiry rendered when a row is read), 491 (525), as raw
// views' 493 (491). `npm run bench -- scale` measures it at a million.
import { afterAll, describe, expect, it } from 'vitest';
import { startRedis } from '../helpers/redis';
import { fillRedis, indexBytesPerLock } from '../helpers/scale';

const LOCKS = 100_000;
let r: Awaited<ReturnType<typeof startRedis>> | undefined;
afterAll(() => r?.stop());

describe('the index of a Redis source', () => {
  it('costs under 500 bytes a lock, and no more after further passes', async () => {
    r = await startRedis();
    await fillRedis(r.client as never, LOCKS);
    const { rows, cold, after } = indexBytesPerLock(r.url, LOCKS);
    expect(rows).toBe(LOCKS);
    expect(cold, `${Math.round(cold)} bytes a lock`).toBeLessThan(500);
    expect(after, `${Math.round(after)} bytes a lock after two more passes`).toBeLessThan(cold * 1.1);
  }, 180_000);
});
