// The verdict on Redis lock holders (stores.md "Verdict") on a real redis-server, each lock written the way its
// library writes it (Debian's python3 has no redis module here: the exact bytes and the exact extend script of
// redis-py's Lock, sent by the redis npm client): a lock whose holder extends it is alive once its expiry is seen to
// move; one not extended is unknown with a second read to wait, then free when its TTL runs out; the seed's SETNX
// timestamp past its time is expired by its rule (unknown: a rule is no evidence of absence); a key with no TTL and no expiry time is unknown. The CLI says the same.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { runCli } from '../helpers/cli';
import { startRedis, type TestRedis } from '../helpers/redis';

let r: TestRedis;
const timers: NodeJS.Timeout[] = [];
beforeAll(async () => {
  r = await startRedis();
}, 30_000);
afterAll(async () => {
  timers.forEach(clearInterval);
  await r?.stop();
});

const cmd = (...args: string[]) => r.client.sendCommand(args);
const hex = (n: number) => randomBytes(n).toString('hex');
/** redis-py's Lock token: uuid1().hex (60-bit time in 100 ns since 1582-10-15, version nibble 1). */
function token(ms = Date.now()): string {
  const t = BigInt(ms) * 10000n + 122192928000000000n;
  const low = (t & 0xffffffffn).toString(16).padStart(8, '0');
  const mid = ((t >> 32n) & 0xffffn).toString(16).padStart(4, '0');
  const high = (((t >> 48n) & 0x0fffn) | 0x1000n).toString(16).padStart(4, '0');
  return `${low}${mid}${high}${'89ab'[randomBytes(1)[0]! % 4]}${hex(2).slice(1)}${hex(6)}`;
}
/** redis-py's LUA_EXTEND_SCRIPT (redis/lock.py), as `Lock.reacquire()` runs it: replace_ttl = 1. */
const EXTEND = `if redis.call("get", KEYS[1]) ~= ARGV[1] then return 0 end
local expiration = redis.call("pttl", KEYS[1])
if not expiration then expiration = 0 end
if expiration < 0 then return 0 end
local newttl = ARGV[2]
if ARGV[3] == "0" then newttl = ARGV[2] + expiration end
redis.call("pexpire", KEYS[1], newttl)
return 1`;

/** A redis-py Lock(timeout=ttl) acquired (SET NX PX), and reacquired every `everyMs` when asked. */
async function pyLock(key: string, ttlMs: number, everyMs?: number): Promise<void> {
  const t = token();
  await cmd('SET', key, t, 'NX', 'PX', String(ttlMs));
  if (everyMs)
    timers.push(
      setInterval(() => void cmd('EVAL', EXTEND, '1', key, t, String(ttlMs), '1').catch(() => undefined), everyMs),
    );
}

async function until<T>(fn: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((res) => setTimeout(res, 100));
  }
}

const source = () => `redis://127.0.0.1:${r.port}/0`;

describe('Redis lock holders judged by their expiry', () => {
  it('judges an extended redis-py lock alive, an unextended one unknown then free, SETNX and no-TTL by their rules', async () => {
    await pyLock('v:extended', 4000, 1000);
    await pyLock('v:crashed', 2500);
    await cmd('SET', 'v:lock.setnx', String(Date.now() / 1000 - 5)); // the seed's SETNX: its expiry time as the value
    await cmd('SET', 'v:forever', token()); // a redis-py lock taken with timeout=None
    const store = judgedStore(new RedisLockStore({ client: r.client, match: 'v:*', source: source() }));
    const lockOf = async (name: string) => (await store.list()).locks.find((l) => l.name === name);

    const once = (await lockOf('v:crashed'))!;
    expect(once.verdict).toBe('unknown');
    expect(once.sentence).toMatch(
      /^Unknown: seen once: its TTL \(\d s left\) is judged by two reads; a second read after 2 s settles it\.$/,
    );
    expect(once.settleMs).toBe(2000); // half its TTL left, in whole seconds
    const twice = (await lockOf('v:crashed'))!;
    expect(twice.sentence).toMatch(
      /its expiry has not moved between reads; it expires in \d s unless its holder extends it/,
    );

    const alive = await until(async () => {
      const v = await lockOf('v:extended');
      return v?.verdict === 'alive' ? v : undefined;
    });
    expect(alive.sentence).toMatch(/^Alive: its expiry moved 1 s later between two reads: its holder extends it\.$/);
    expect(alive.evidence?.[0]?.from).toBe('two reads of PTTL');

    const setnx = (await lockOf('v:lock.setnx'))!;
    // stale by its format's rule: expired (a contender takes it over), but no evidence its holder is gone
    expect([setnx.health, setnx.verdict]).toEqual(['expired', 'unknown']);
    expect(setnx.sentence).toMatch(
      /^Unknown: its value says it went stale \d+ s ago; by its format's rule the next acquirer takes it over; that expires the lock, but nothing read shows whether its holder still runs\.$/,
    );
    const forever = (await lockOf('v:forever'))!;
    expect(forever.verdict).toBe('unknown');
    expect(forever.sentence).toMatch(/no TTL and no refresh ever seen/);
    expect(forever.settleMs).toBeUndefined();

    await until(async () => ((await lockOf('v:crashed')) ? undefined : true), 5000); // its TTL ran out: free
    expect((await lockOf('v:extended'))!.verdict).toBe('alive');
  }, 60_000);
});

describe('lockboard status / why on Redis', () => {
  it('says seen once without --settle, alive after it for an extended lock, and never healthy from one read', async () => {
    await pyLock('c:extended', 4000, 1000);
    await pyLock('c:crashed', 20_000);
    const one = await runCli(['status', source(), 'c:crashed'], {});
    expect(one.code).toBe(0);
    expect(one.stdout).not.toMatch(/healthy/);
    expect(one.stdout).toMatch(/state +held \(holder unknown\)/);
    expect(one.stdout).toMatch(/verdict +Unknown: seen once: .* Run with --settle to read again after \d+ s\./);

    const why = await runCli(['why', source(), 'c:extended', '--settle'], {});
    expect(why.stderr).toMatch(/Waiting \d s to read c:extended again/);
    expect(why.stdout).toMatch(/^Alive: its expiry moved \d s later between two reads/);
    expect(why.stdout).toMatch(/two reads of PTTL/);
    expect(why.code).toBe(0);

    await pyLock('c:crashed-2', 8000);
    const settled = await runCli(['status', source(), 'c:crashed-2', '--settle'], {});
    expect(settled.stderr).toMatch(/Waiting \d s to read c:crashed-2 again/);
    expect(settled.stdout).toMatch(/verdict +Unknown: its expiry has not moved between reads; it expires in \d s/);
  }, 60_000);
});
