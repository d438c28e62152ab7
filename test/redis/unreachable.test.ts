// A Redis that stops under an open source speaks Redis's words: node-redis rejects a command with an error whose
// message may be empty (a TimeoutError while it reconnects), which the console showed as "Error". Opened as the
// console opens it (reconnecting by itself), a listing after the server stops fails with "Cannot reach Redis at …",
// a network code, and the store-unavailable judgement (the console's unreachable note, the CLI's exit 3); and the
// store closes at once (QUIT would wait for the server forever).
import { afterAll, describe, expect, it } from 'vitest';
import { storeUnavailable } from '@/lib/lock/store-errors';
import { openSource, parseSource } from '@/lib/lock/stores';
import { redisUnreachable } from '@/lib/lock/stores/redis/unreachable';
import type { LockStore } from '@/lib/lock/store';
import { startRedis, type TestRedis } from '../helpers/redis';
import { delay } from '../helpers/requests';

let r: TestRedis | undefined;
let store: LockStore | undefined;
afterAll(async () => {
  await Promise.race([store?.close?.(), delay(3000)]); // a close that hangs fails the test below, never the run
  await r?.stop();
});

describe('a stopped Redis', () => {
  it('is named unreachable in Redis’s words at every listing, never as a bare "Error"', async () => {
    r = await startRedis();
    const source = `redis://127.0.0.1:${r.port}/0`;
    store = await openSource(parseSource(source), { role: 'console', env: {} });
    await r.client.sendCommand(['SET', 'locks:nightly', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'PX', '60000']);
    expect((await store.list()).locks.map((l) => l.name)).toEqual(['locks:nightly']);
    await r.stop();
    // the first command meets the closed socket, the next ones the reconnecting client: each in Redis's words
    for (let i = 0; i < 2; i++) {
      const err = await store.list().then(
        () => null,
        (e: unknown) => e as Error & { code?: string },
      );
      expect(err?.message, `listing ${i + 1}`).toMatch(
        new RegExp(`^Cannot reach Redis at ${source.replace(/[.]/g, '\\.')}: \\S`),
      );
      expect(err?.code).toMatch(/^(ECONNRESET|ECONNREFUSED|ETIMEDOUT)$/);
      expect(storeUnavailable(err)).toContain(`Cannot reach Redis at ${source}`);
      await delay(300);
    }
    // closing it does not wait for a server that is gone (QUIT would wait forever while it reconnects)
    const closed = await Promise.race([store.close?.().then(() => 'closed'), delay(3000).then(() => 'still waiting')]);
    expect(closed).toBe('closed');
    store = undefined;
  }, 60_000);
});

describe('a failed command', () => {
  it('is a connection failure by the client’s state when its class name says nothing (a bundled build)', () => {
    const renamed = new (class t extends Error {})(''); // a minified TimeoutError: no name, no message
    const err = redisUnreachable(renamed, 'redis://cache:6379/0', true) as Error & { code: string };
    expect(err.message).toBe('Cannot reach Redis at redis://cache:6379/0: the connection is down (reconnecting)');
    expect(err.code).toBe('ECONNRESET');
    // a reply from the server on a ready connection is the server's own answer, kept as it is
    const reply = new Error('WRONGTYPE Operation against a key holding the wrong kind of value');
    expect(redisUnreachable(reply, 'redis://cache:6379/0', false)).toBe(reply);
  });
});
