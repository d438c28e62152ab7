// Redis's change feed for the live view: keyspace notifications are used only where the server already has them
// enabled (the configuration is never changed), report each lock's set, refresh, delete and expiry by name, and a
// reconnect is reported as missed events (Redis Pub/Sub keeps none); a feed whose server is gone stops at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeFeed } from '@/lib/lock/store';
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { coversLocks } from '@/lib/lock/stores/redis/feed';
import { delay } from '../helpers/requests';
import { startRedis, type TestRedis } from '../helpers/redis';

let plain: TestRedis;
let notifying: TestRedis;
beforeAll(async () => {
  [plain, notifying] = await Promise.all([startRedis(), startRedis(['--notify-keyspace-events', 'Kg$hx'])]);
}, 30_000);
afterAll(async () => {
  await plain?.stop();
  await notifying?.stop();
});

const storeOn = (r: TestRedis, match = 'lock:*') =>
  new RedisLockStore({ client: r.client, match, source: `redis://127.0.0.1:${r.port}/0`, db: 0 });

/** Starts the feed and collects the names it reports. */
async function feedOf(r: TestRedis) {
  const names: string[] = [];
  let missed = 0;
  const feed = await storeOn(r).changes({ changed: (n) => names.push(...n), missed: () => missed++ });
  const until = async (name: string, count = 1) => {
    for (let i = 0; i < 100 && names.filter((n) => n === name).length < count; i++) await delay(20);
    return names.filter((n) => n === name).length;
  };
  return { feed, names, until, missed: () => missed };
}

describe('the Redis change feed', () => {
  it('is used only where notify-keyspace-events already covers locks, and never changes the configuration', async () => {
    const { feed } = await feedOf(plain);
    expect(feed).toBeNull();
    expect(await plain.client.configGet('notify-keyspace-events')).toEqual({ 'notify-keyspace-events': '' });
    expect(coversLocks('KEA')).toBe(true);
    expect(coversLocks('Kg$hx')).toBe(true);
    expect(coversLocks('Eg$hx')).toBe(false); // keyevent channel only: the key name is not in the channel
    expect(coversLocks('K$')).toBe(false); // no del/expire: a release would go unseen
  });

  it('reports acquire, refresh, release and expiry of the matching keys by name, and nothing else', async () => {
    const f = await feedOf(notifying);
    expect(f.feed?.description).toMatch(/keyspace notifications/);
    const cmd = (...args: string[]) => notifying.client.sendCommand(args);
    /** Runs `write` and answers whether the feed then named `name` (SET … PX reports set and expire: two events). */
    const reported = async (name: string, write: () => Promise<unknown>) => {
      const before = f.names.filter((n) => n === name).length;
      await write();
      return (await f.until(name, before + 1)) > before;
    };
    expect(await reported('lock:deploy', () => cmd('SET', 'lock:deploy', 'owner-1', 'NX', 'PX', '30000'))).toBe(true);
    expect(await reported('lock:deploy', () => cmd('PEXPIRE', 'lock:deploy', '60000'))).toBe(true); // a refresh
    expect(await reported('lock:redisson', () => cmd('HSET', 'lock:redisson', 'uuid:1', '1'))).toBe(true);
    expect(await reported('lock:deploy', () => cmd('DEL', 'lock:deploy'))).toBe(true);
    await cmd('SET', 'lock:short', 'x', 'PX', '50');
    expect(await f.until('lock:short', 2)).toBe(2); // set and expire
    await delay(200);
    await cmd('GET', 'lock:short'); // deleted when touched, if the server has not sampled it already: reported then
    expect(await f.until('lock:short', 3)).toBe(3); // expired
    await cmd('SET', 'cache:page', 'not watched');
    await delay(100);
    expect(f.names).not.toContain('cache:page');
    await f.feed!.stop();
  });

  it('reports a reconnect of its subscription as missed events', async () => {
    const f = await feedOf(notifying);
    const clients = String(await notifying.client.sendCommand(['CLIENT', 'LIST']));
    const subscriber = clients.split('\n').findLast((l) => / cmd=psubscribe/.test(l)); // this test's
    expect(subscriber).toBeDefined();
    const id = /id=(\d+)/.exec(subscriber!)![1]!;
    await notifying.client.sendCommand(['CLIENT', 'KILL', 'ID', id]);
    for (let i = 0; i < 100 && f.missed() === 0; i++) await delay(50);
    expect(f.missed()).toBe(1);
    await notifying.client.sendCommand(['SET', 'lock:after', 'x']);
    expect(await f.until('lock:after')).toBe(1); // subscribed again
    await (f.feed as ChangeFeed).stop();
  });

  it('stops at once when its server is gone (QUIT would wait for it forever)', async () => {
    const gone = await startRedis(['--notify-keyspace-events', 'Kg$hx']);
    try {
      const f = await feedOf(gone);
      expect(f.feed).not.toBeNull();
      await gone.stop();
      await delay(300); // the subscription notices and starts reconnecting
      const stopped = await Promise.race([f.feed!.stop().then(() => 'stopped'), delay(3000).then(() => 'waiting')]);
      expect(stopped).toBe('stopped');
    } finally {
      await gone.stop();
    }
  });
});
