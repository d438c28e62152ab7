// Locks in a real Redis (Debian's redis-server): every format written exactly as its implementation writes it,
// detected with its owner and health; non-lock keys skipped; successor safety of each format's compare-and-delete;
// waiters woken as each format's own unlock does; the audit stream.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { delay } from '../helpers/requests';
import { startRedis, type TestRedis } from '../helpers/redis';

let r: TestRedis;
beforeAll(async () => {
  r = await startRedis();
}, 30_000);
afterAll(() => r?.stop());

const cmd = (...args: string[]) => r.client.sendCommand(args);
const hex = (n: number) => randomBytes(n).toString('hex');
/** A uuid1 as Python's uuid.uuid1().hex: 60-bit time in 100 ns since 1582-10-15, version nibble 1. */
function uuid1Hex(ms = Date.now()): string {
  const t = BigInt(ms) * 10000n + 122192928000000000n;
  const low = (t & 0xffffffffn).toString(16).padStart(8, '0');
  const mid = ((t >> 32n) & 0xffffn).toString(16).padStart(4, '0');
  const high = (((t >> 48n) & 0x0fffn) | 0x1000n).toString(16).padStart(4, '0');
  const clockSeq = `${'89ab'[randomBytes(1)[0]! % 4]}${hex(2).slice(1)}`; // RFC 4122 variant bits
  return `${low}${mid}${high}${clockSeq}${hex(6)}`;
}
const store = (match = 'f:*', longHeldMs?: number) =>
  new RedisLockStore({ client: r.client, match, source: `redis://127.0.0.1:${r.port}/0`, longHeldMs });

/** Each library's own writes (facts-redis-postgres.md). */
async function writeEveryFormat() {
  await cmd('SET', 'f:redlock', hex(16), 'PX', '10000'); // node-redlock ACQUIRE script: set key ARGV[1] PX ARGV[2]
  await cmd('SET', 'f:redis-py', uuid1Hex(Date.now() - 5_000), 'NX', 'PX', '10000'); // redis-py Lock.do_acquire
  await cmd('SET', 'f:lock:jobs', randomBytes(18).toString('base64'), 'NX', 'EX', '30'); // python-redis-lock (lock:<name>)
  await cmd('MSETNX', 'f:bsm', `${randomBytes(16).toString('base64url')}worker-7@host-b`); // bsm/redislock obtain.lua
  await cmd('PEXPIRE', 'f:bsm', '10000');
  await cmd('SET', 'f:redsync', randomBytes(16).toString('base64'), 'NX', 'PX', '8000'); // redsync (default 8 s)
  await cmd('HINCRBY', 'f:redisson', `${crypto.randomUUID()}:57`, '1'); // Redisson lock script
  await cmd('PEXPIRE', 'f:redisson', '30000');
  await cmd(
    'SET',
    'f:laravel_database_laravel_cache_report',
    randomBytes(12).toString('base64url').slice(0, 16).replace(/[-_]/g, 'x'),
    'EX',
    '60',
    'NX',
  );
  const digest = `f:uniquejobs:${hex(16)}`; // sidekiq-unique-jobs: queue.lua then lock.lua
  await cmd('SET', digest, 'jid-0abc123', 'NX');
  await cmd('HSET', `${digest}:LOCKED`, 'jid-0abc123', String(Date.now() / 1000 - 60));
  await cmd('SET', 'f:lock.foo', String(Date.now() / 1000 + 30 + 1)); // SETNX: expiry timestamp as the value
  // not locks
  await cmd('SET', 'f:cache:user:1', '{"name":"Ann","plan":"pro"}');
  await cmd('SET', 'f:counter', '42');
  await cmd('RPUSH', 'f:queue', 'a', 'b');
  return digest;
}

describe('Redis formats', () => {
  it('lists every format with its owner as the format records it, and skips caches, counters and queues', async () => {
    const digest = await writeEveryFormat();
    const { locks, skipped } = await store().list();
    const byName = Object.fromEntries(locks.map((l) => [l.name, l]));
    expect(Object.fromEntries(locks.map((l) => [l.name, l.format]))).toEqual({
      'f:redlock': 'redlock',
      'f:redis-py': 'redis-py',
      'f:lock:jobs': 'python-redis-lock',
      'f:bsm': 'redislock',
      'f:redsync': 'redsync',
      'f:redisson': 'redisson',
      'f:laravel_database_laravel_cache_report': 'laravel',
      [digest]: 'sidekiq-unique-jobs',
      'f:lock.foo': 'setnx',
    });
    expect(skipped).toBeGreaterThanOrEqual(3); // cache entry, counter, queue (and SUJ's digest string)
    expect(byName['f:bsm']!.identity).toBe('worker-7@host-b');
    expect(byName['f:redisson']!.identity).toMatch(/:57$/);
    expect(byName[digest]!.identity).toBe('jid-0abc123');
    expect(byName[digest]!.heldMs).toBeGreaterThan(55_000); // its :LOCKED time
    expect(byName['f:redis-py']!.heldMs).toBeGreaterThanOrEqual(4_000); // uuid1 time
    expect(byName['f:redlock']!.terms.since).toBe('Seen since'); // no acquire time recorded
    expect(byName['f:lock.foo']!.health).toBe('healthy');
    // the version is a hash of the value, never the token itself
    const token = String(await cmd('GET', 'f:redlock'));
    expect(byName['f:redlock']!.version).not.toContain(token);
    expect(JSON.stringify(locks)).not.toContain(token);
  });

  it('judges health on Redis time: healthy → gone with a TTL, expired SETNX timestamps, no-TTL locks long-held', async () => {
    await cmd('SET', 'h:short', hex(16), 'PX', '400');
    await cmd('SET', 'h:setnx', String(Date.now() / 1000 - 5));
    await cmd('SET', 'h:forever', `${hex(6)}0${hex(16).slice(13)}`); // redlock-shaped, and no TTL
    const s = store('h:*', 300);
    let byName = Object.fromEntries((await s.list()).locks.map((l) => [l.name, l.health]));
    expect(byName).toEqual({ 'h:short': 'healthy', 'h:setnx': 'expired', 'h:forever': 'unknown' });
    await delay(500);
    byName = Object.fromEntries((await s.list()).locks.map((l) => [l.name, l.health]));
    expect(byName).toEqual({ 'h:setnx': 'expired', 'h:forever': 'long-held' }); // seen for longer than 300 ms
  });
});

describe('force-release by compare-and-delete', () => {
  it('never releases a holder that re-acquired or a successor, for any string format', async () => {
    const s = store('s:*');
    let micros = 0;
    for (const [key, write] of [
      ['s:redlock', () => cmd('SET', 's:redlock', hex(16), 'PX', '10000')],
      ['s:lock:py', () => cmd('SET', 's:lock:py', randomBytes(18).toString('base64'), 'EX', '30')],
      ['s:redsync', () => cmd('SET', 's:redsync', randomBytes(16).toString('base64'), 'PX', '8000')],
      // time.time() has microseconds: two acquirers never write the same stamp (a random one repeated 1 in 1 000
      // times when both writes fell in the same millisecond)
      [
        's:setnx',
        () => cmd('SET', 's:setnx', `${((Date.now() - 1000) / 1000).toFixed(3)}${String(++micros).padStart(3, '0')}`),
      ],
    ] as const) {
      await write();
      const seen = (await s.inspect(key))!;
      await write(); // the successor (or a re-acquisition) writes its own value
      const stale = await s.forceRelease({ name: key, version: seen.version, reason: 'stuck', operator: 'op' });
      expect(stale.outcome, key).toBe('changed');
      expect(await cmd('EXISTS', key), key).toBe(1);
      const now = (await s.inspect(key))!;
      const done = await s.forceRelease({ name: key, version: now.version, reason: 'stuck', operator: 'op' });
      expect(done.outcome, key).toBe('released');
      expect(await cmd('EXISTS', key), key).toBe(0);
      expect((await s.forceRelease({ name: key, version: now.version, reason: 'x', operator: 'op' })).outcome).toBe(
        'gone',
      );
    }
  });

  it('wakes python-redis-lock waiters through its signal list, as its UNLOCK_SCRIPT does', async () => {
    const s = store('w:*');
    await cmd('SET', 'w:lock:nightly', randomBytes(18).toString('base64'), 'NX', 'EX', '30');
    const waiter = r.client.duplicate();
    waiter.on('error', () => {});
    await waiter.connect();
    const woken = waiter.sendCommand(['BLPOP', 'w:lock-signal:nightly', '5']);
    const seen = (await s.inspect('w:lock:nightly'))!;
    expect(
      (await s.forceRelease({ name: seen.name, version: seen.version, reason: 'x', operator: 'op' })).outcome,
    ).toBe('released');
    expect(await woken).toEqual(['w:lock-signal:nightly', '1']);
    await waiter.quit();
  });

  it('releases a Redisson lock only for the client thread seen and publishes the unlock on its channel', async () => {
    const s = store('rs:*');
    const owner = `${crypto.randomUUID()}:1`;
    await cmd('HINCRBY', 'rs:orders', owner, '2'); // reentrant twice
    await cmd('PEXPIRE', 'rs:orders', '30000');
    const seen = (await s.inspect('rs:orders'))!;
    await cmd('DEL', 'rs:orders');
    await cmd('HINCRBY', 'rs:orders', `${crypto.randomUUID()}:9`, '1'); // another client took it
    expect(
      (await s.forceRelease({ name: 'rs:orders', version: seen.version, reason: 'x', operator: 'op' })).outcome,
    ).toBe('changed');
    const now = (await s.inspect('rs:orders'))!;
    const sub = r.client.duplicate();
    sub.on('error', () => {});
    await sub.connect();
    const messages: string[] = [];
    await sub.subscribe('redisson_lock__channel:{rs:orders}', (m) => messages.push(m));
    expect(
      (await s.forceRelease({ name: 'rs:orders', version: now.version, reason: 'x', operator: 'op' })).outcome,
    ).toBe('released');
    await delay(100);
    expect(messages).toEqual(['0']);
    await sub.quit();
  });

  it('unlocks a sidekiq-unique-jobs digest only for the jid seen, with every key of the digest', async () => {
    const s = store('sq:*');
    const digest = `sq:uniquejobs:${hex(16)}`;
    await cmd('SET', digest, 'jid-1', 'NX');
    await cmd('HSET', `${digest}:LOCKED`, 'jid-1', String(Date.now() / 1000));
    await cmd('ZADD', 'sq:uniquejobs:digests', String(Date.now() / 1000), digest);
    const seen = (await s.inspect(digest))!;
    expect(seen.identity).toBe('jid-1');
    const done = await s.forceRelease({ name: digest, version: seen.version, reason: 'x', operator: 'op' });
    expect(done.outcome).toBe('released');
    expect(await cmd('EXISTS', digest, `${digest}:LOCKED`)).toBe(0);
    expect(await cmd('ZSCORE', 'sq:uniquejobs:digests', digest)).toBeNull();
  });

  it('records the attempt in the audit stream before the delete and the outcome after; readable by time', async () => {
    const s = new RedisLockStore({ client: r.client, match: 'a:*', auditStream: 'a:audit' });
    await cmd('SET', 'a:job', hex(16), 'PX', '10000');
    const seen = (await s.inspect('a:job'))!;
    const from = new Date(Date.now() - 1000);
    const result = await s.forceRelease({
      name: 'a:job',
      version: seen.version,
      reason: 'runner died',
      operator: 'ann',
    });
    expect(result.audit).toHaveLength(2);
    const events = await s.readAudit(from, new Date(Date.now() + 1000), 'a:job');
    expect(events.map((e) => [e.event, e.operator, e.reason])).toEqual([
      ['force-release-requested', 'ann', 'runner died'],
      ['force-released', 'ann', 'runner died'],
    ]);
    expect((await s.list()).locks).toEqual([]); // the stream itself is not a lock
  });
});
