// The listing's pipelined reads (lib/lock/stores/redis/conn.ts). node-redis arms a 5 s timer per command that lives
// its whole 5 s, answered or not: a listing of a million keys kept ~30 000 alive and grew the console's heap by
// gigabytes. A batch's commands go without one and the batch has one deadline, so a server that stops answering
// still fails the listing, in Redis's words.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisConn } from '@/lib/lock/stores/redis/conn';
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fillRedis } from '../helpers/scale';

let r: TestRedis | undefined;
afterEach(async () => {
  await r?.stop();
  r = undefined;
});

describe('a listing’s pipelined reads', () => {
  it('leave no timer per command behind', async () => {
    r = await startRedis();
    await fillRedis(r.client as never, 2_500); // 2 500 redis-py locks and 2 500 other keys
    const armed = vi.spyOn(AbortSignal, 'timeout'); // how node-redis arms a command's timer
    const store = new RedisLockStore({ client: r.client as never, source: 'redis://test/0' });
    const page = await store.list();
    expect(page.locks).toHaveLength(2_500);
    // 7 500 commands (GETRANGE per key, PTTL per lock): a timer each would leave 7 500 alive for 5 s
    expect(armed.mock.calls.length).toBe(0); // TIME and SCAN too go under the deadline of the batch (#63)
    armed.mockRestore();
  }, 30_000);

  it('fail within the batch deadline, in Redis’s words, when the server stops answering', async () => {
    r = await startRedis();
    const conn = new RedisConn(r.client as never, 'redis://test/0', 1_000);
    process.kill(r.pid, 'SIGSTOP');
    const started = Date.now();
    const err = await conn
      .pipeline([
        ['a', ['GET', 'a']],
        ['b', ['GET', 'b']],
      ])
      .then(
        () => null,
        (e: unknown) => e as Error & { code?: string },
      );
    expect(err?.message).toBe('Cannot reach Redis at redis://test/0: no answer within 1 s');
    expect(err?.code).toBe('ETIMEDOUT');
    expect(Date.now() - started).toBeLessThan(3_000);
    process.kill(r.pid, 'SIGCONT');
    expect(await conn.pipeline([['a', ['SET', 'a', '1']]])).toEqual(['OK']);
  }, 30_000);

  it('fail a SCAN and a TIME within the same deadline, in Redis’s words, never as a bare "Error" after 5 s', async () => {
    // a million-lock pass on a busy machine held the console's event loop past node-redis's 5 s timer: its
    // TimeoutError (no message) failed every pass, as "Error" (#63)
    r = await startRedis();
    const conn = new RedisConn(r.client as never, 'redis://test/0', 1_000);
    process.kill(r.pid, 'SIGSTOP');
    for (const call of [() => conn.scanPage('*', undefined, { count: 10, budget: 10 }), () => conn.time()]) {
      const started = Date.now();
      const err = await call().then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err?.message).toBe('Cannot reach Redis at redis://test/0: no answer within 1 s');
      expect(Date.now() - started).toBeLessThan(3_000);
    }
    process.kill(r.pid, 'SIGCONT');
    expect((await conn.scanPage('*', undefined, { count: 10, budget: 10 })).keys).toEqual([]);
  }, 30_000);
});
