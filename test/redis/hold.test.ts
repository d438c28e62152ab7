// A hold on Redis against Debian's redis-server: Lockboard's value set with SET NX PX, so a SET-NX contender (the
// command redis-py, node-redlock, go-redsync and bsm/redislock all take their lock with) is refused while it lasts
// and takes the key once Redis ended the hold by itself at its PX; unhold ends it sooner, both in the stream trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource, parseSource } from '@/lib/lock/stores';
import { runCli } from '../helpers/cli';
import { startRedis, type TestRedis } from '../helpers/redis';

let r: TestRedis;
let source: string;
beforeAll(async () => {
  r = await startRedis();
  source = `redis://127.0.0.1:${r.port}/0`;
}, 30_000);
afterAll(() => r?.stop());

/** A SET-NX family's acquire: resolves true when the contender took the key. */
const contend = async (key: string) =>
  String(await r.client.sendCommand(['SET', key, 'f3a9c0d1e2b4a5c6f3a9c0d1e2b4a5c6', 'NX', 'PX', '10000'])) === 'OK';

async function holdRecords(name: string) {
  const store = await openSource(parseSource(source), { env: {}, role: 'cli' });
  try {
    const all = await store.readAudit(new Date(Date.now() - 3_600_000), new Date(Date.now() + 3_600_000), name);
    return all.filter((x) => x.event.startsWith('hold-')).map((x) => [x.event, x.operator, x.reason]);
  } finally {
    await store.close();
  }
}

describe('lockboard hold on redis://', () => {
  it('holds with SET NX PX: a SET-NX contender is refused until Redis ends the hold at its time', async () => {
    const held = await runCli(['hold', source, 'locks:deploy', '--reason', 'freeze: INC-9', '--for', '8s'], {});
    expect(held.code, held.stderr).toBe(0);
    expect(held.stdout).toContain('The store ends it by itself');
    const pttl = Number(await r.client.sendCommand(['PTTL', 'locks:deploy']));
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(8_000);
    expect(await contend('locks:deploy')).toBe(false);
    let taken = false;
    for (let i = 0; i < 150 && !taken; i++) {
      taken = await contend('locks:deploy');
      if (!taken) await new Promise((res) => setTimeout(res, 100));
    }
    expect(taken, 'the contender took the key once PX ran out').toBe(true);
    await r.client.sendCommand(['DEL', 'locks:deploy']);
  });

  it('ends a hold with unhold (0), recording both; an over-long --for is refused (2) with nothing set', async () => {
    const held = await runCli(
      ['hold', source, 'locks:etl', '--reason', 'migrate', '--for', '1h', '--operator', 'ann'],
      {},
    );
    expect(held.code, held.stderr).toBe(0);
    const ls = JSON.parse((await runCli(['ls', source, '--json'], {})).stdout) as {
      locks: { name: string; identity: string; details: [string, string][] }[];
    };
    const lock = ls.locks.find((l) => l.name === 'locks:etl')!;
    expect(lock.identity).toMatch(/ \(lockboard hold until \d{4}-.*Z\)$/);
    expect(lock.details).toContainEqual(['Purpose', 'migrate']);
    const again = await runCli(['hold', source, 'locks:etl', '--reason', 'x', '--for', '1h'], {});
    expect(again.code).toBe(11);
    expect(again.stderr).toContain('(lockboard hold until');
    const end = await runCli(['unhold', source, 'locks:etl', '--operator', 'ben'], {});
    expect(end.code, end.stderr).toBe(0);
    expect(await r.client.sendCommand(['EXISTS', 'locks:etl'])).toBe(0);
    expect(await holdRecords('locks:etl')).toEqual([
      ['hold-placed', 'ann', 'migrate'],
      ['hold-ended', 'ben', 'migrate'],
    ]);
    const long = await runCli(['hold', source, 'locks:etl', '--reason', 'r', '--for', '367d'], {});
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('at most 366 days');
    expect(await r.client.sendCommand(['EXISTS', 'locks:etl'])).toBe(0);
  });
});
