// Redis: listing 10 000 locks among 100 000 keys (the rest cache entries, counters and queues) against a real
// redis-server, as a ratio to a bare SCAN + pipelined GET of the same keys (goal ≤ 1.5×); and the round trips of a
// force-release (one Lua compare-and-delete, plus the two audit XADDs).
import { RedisLockStore } from '@/lib/lock/stores/redis/store';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { startRedis } from '../helpers/redis';
import { printTable, round, writeJson } from './report';

const KEYS = 100_000;
const LOCKS = 10_000;

export async function benchRedis() {
  const r = await startRedis();
  const hex = (i: number) => i.toString(16).padStart(32, '0');
  const commands: string[][] = [];
  for (let i = 0; i < KEYS; i++) {
    if (i < LOCKS)
      commands.push([
        'SET',
        `lock:${i}`,
        i % 2 ? hex(i * 7919) : Buffer.from(hex(i)).toString('base64').slice(0, 22) + '==',
        'PX',
        '600000',
      ]);
    else if (i % 10 === 0) commands.push(['RPUSH', `queue:${i}`, 'job']);
    else if (i % 10 === 1) commands.push(['SET', `counter:${i}`, String(i)]);
    else commands.push(['SET', `cache:${i}`, `{"user":${i},"plan":"pro","seen":${Date.now()}}`]);
  }
  for (let i = 0; i < commands.length; i += 5_000)
    await Promise.all(commands.slice(i, i + 5_000).map((c) => r.client.sendCommand(c)));

  const rows: Record<string, string | number>[] = [];
  // Baseline: SCAN everything, GET every key in pipelined batches of 500
  let baselineMs = Infinity;
  let baselineTrips = 0;
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    let trips = 0;
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = (await r.client.sendCommand(['SCAN', cursor, 'COUNT', '1000'])) as [string, string[]];
      keys.push(...batch);
      cursor = next;
      trips++;
    } while (cursor !== '0');
    for (let i = 0; i < keys.length; i += 500) {
      await Promise.all(keys.slice(i, i + 500).map((k) => r.client.sendCommand(['GET', k]).catch(() => null)));
      trips++;
    }
    baselineMs = Math.min(baselineMs, performance.now() - started);
    baselineTrips = trips;
  }
  rows.push({
    listing: 'bare SCAN + pipelined GET (baseline)',
    keys: KEYS,
    locks: '-',
    'round trips': baselineTrips,
    ms: round(baselineMs),
    ratio: 1,
  });
  // the store's own connection counts its round trips; it is used judged, as every caller gets it
  const raw = new RedisLockStore({ client: r.client });
  const store = judgedStore(raw);
  let ms = Infinity;
  let found = 0;
  let skipped = 0;
  let trips = 0;
  for (let run = 0; run < 5; run++) {
    raw.conn.roundTrips = 0;
    const started = performance.now();
    const list = await store.list();
    ms = Math.min(ms, performance.now() - started);
    found = list.locks.length;
    skipped = list.skipped;
    trips = raw.conn.roundTrips;
  }
  rows.push({
    listing: `RedisLockStore.list (skipped ${skipped})`,
    keys: KEYS,
    locks: found,
    'round trips': trips,
    ms: round(ms),
    ratio: round(ms / baselineMs, 2),
  });
  printTable(`Listing ${LOCKS} locks among ${KEYS} keys (best of 5)`, rows);

  const view = (await store.inspect('lock:1'))!;
  raw.conn.roundTrips = 0;
  const before = raw.conn.roundTrips;
  const result = await store.forceRelease({
    name: 'lock:1',
    version: view.version,
    reason: 'bench',
    operator: 'bench',
  });
  const releaseTrips = raw.conn.roundTrips - before;
  const ops = [
    {
      operation: `force-release (${result.outcome})`,
      'round trips': releaseTrips,
      detail: 'inspect: 2 (TYPE+PTTL, GET); XADD; EVAL compare-and-delete; XADD',
    },
  ];
  printTable('Redis round trips per force-release', ops);
  await r.stop();
  writeJson('redis', { keys: KEYS, locks: LOCKS, rows, ops });
  return { rows, ops };
}
