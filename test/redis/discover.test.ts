// lockboard discover on a real redis-server: INFO keyspace names the databases, each is SCANned as `ls` lists it, and
// the locks found are grouped by key prefix into sources `ls` takes; caches are not locks; the sample bounds the
// keys read; nothing is written (the server's change counter does not move).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../helpers/redis';
import { discover, lsFormats } from '../cli/discover-fixtures';

let r: TestRedis;
let base: string;
beforeAll(async () => {
  r = await startRedis();
  base = `redis://127.0.0.1:${r.port}`;
  const cmd = (...args: string[]) => r.client.sendCommand(args);
  // node-redlock: SET key token PX ttl; python-redis-lock: lock:<name> with a base64 id
  for (const name of ['lock:deploy', 'lock:report', 'lock:backup'])
    await cmd('SET', name, randomBytes(16).toString('hex'), 'PX', '60000');
  await cmd('SET', 'lock:jobs', randomBytes(18).toString('base64'), 'NX', 'EX', '60');
  for (let i = 0; i < 2000; i++) await cmd('SET', `cache:user:${i}`, `{"name":"user ${i}"}`);
  await cmd('SELECT', '3');
  // bsm/redislock: a token of 22 base64url characters followed by its metadata
  await cmd('SET', 'jobs/nightly', `${randomBytes(16).toString('base64url')}worker-7@host-b`, 'PX', '60000');
  await cmd('SELECT', '0');
}, 60_000);
afterAll(() => r?.stop());

/** How many changes the server has seen (rdb_changes_since_last_save): a write of any kind moves it. */
async function changes(): Promise<number> {
  const info = String(await r.client.sendCommand(['INFO', 'persistence']));
  return Number(/rdb_changes_since_last_save:(\d+)/.exec(info)![1]);
}

describe('lockboard discover redis://HOST:PORT', () => {
  it('finds the lock prefixes of every database with their formats, and writes nothing', async () => {
    const before = await changes();
    const { report, bySource } = await discover(base);
    expect(report.unreachable).toBeUndefined();
    expect(report.roots).toBe(2); // db0 and db3, from INFO keyspace
    expect(Object.keys(bySource).sort()).toEqual([`${base}/0?match=lock:*`, `${base}/3?match=jobs/*`]);
    const db0 = bySource[`${base}/0?match=lock:*`]!;
    expect(db0.locks).toBe(4);
    expect(db0.estimate).toBe(2004); // DBSIZE
    // exactly what `lockboard ls` lists under each source found
    for (const [source, c] of Object.entries(bySource)) expect(c.formats).toEqual(await lsFormats(source));
    expect(bySource[`${base}/3?match=jobs/*`]!.formats).toEqual({ redislock: 1 });
    expect(report.problems).toEqual([]);
    expect(await changes()).toBe(before);
  });

  it('stops at the sample and says so: 60 keys of 2 005, shared between the databases', async () => {
    const { report, bySource } = await discover(base, { sample: 60 });
    expect(report.cappedBy).toBe('sample');
    expect(report.sampled).toBeGreaterThanOrEqual(30);
    expect(report.sampled).toBeLessThanOrEqual(60 + 20); // SCAN's COUNT is a hint: a page may hold a few more
    // both databases were looked at, each within its share
    expect(report.listed).toBe(2);
    // db0's share (30 of its 2 004 keys) is read: its locks, if among them, are named capped; if not, db0 is said
    // to be not wholly read, never "no locks"
    const db0 = bySource[`${base}/0?match=lock:*`];
    if (db0) expect(db0).toMatchObject({ capped: true });
    else
      expect(report.problems).toContainEqual(
        expect.stringMatching(new RegExp(`^${base}/0: no lock among the first \\d+ of ~2004`)),
      );
    expect(db0?.sampled ?? 0).toBeLessThanOrEqual(40);
    expect(bySource[`${base}/3?match=jobs/*`]).toMatchObject({ capped: false, sampled: 1 });
  });

  it('stops at the request budget', async () => {
    const { report } = await discover(base, { maxRequests: 2 });
    expect(report.requests).toBe(2);
    expect(report.cappedBy).toBe('requests');
    expect(report.problems.join('\n')).toMatch(/not listed \(requests bound reached\)/);
  });

  it('stops at --max-seconds when the server stops answering', async () => {
    process.kill(r.pid, 'SIGSTOP');
    try {
      const started = Date.now();
      const { report } = await discover(base, { maxSeconds: 1 });
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(report.cappedBy).toBe('time');
      expect(report.unreachable).toBe('stopped after 1 s (--max-seconds)');
    } finally {
      process.kill(r.pid, 'SIGCONT');
    }
  });

  it('reports an unreachable server as such', async () => {
    const { report } = await discover('redis://127.0.0.1:1');
    expect(report.unreachable).toMatch(/ECONNREFUSED|Cannot reach/);
    expect(report.candidates).toEqual([]);
  });
});
