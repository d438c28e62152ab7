// Untrusted lock contents (#39): what one 64 MB value under a Redis source's pattern costs a listing, against the
// read a user would otherwise make (SCAN + pipelined GET of every key, as the listing did before #39): bytes Redis
// sends, the listing process's memory, time; and the CLI's peak RSS with and without the value.
import { spawnSync } from 'node:child_process';
import { openSource, parseSource } from '@/lib/lock/stores';
import { BIN } from '../helpers/cli';
import { startRedis } from '../helpers/redis';
import { printTable, round, writeJson } from './report';

const LOCKS = 1_000;
const MB = 2 ** 20;

export async function benchUntrusted() {
  const r = await startRedis();
  try {
    const source = `redis://127.0.0.1:${r.port}/0?match=locks:*`;
    for (let i = 0; i < LOCKS; i += 500)
      await Promise.all(
        Array.from({ length: 500 }, (_, j) =>
          r.client.sendCommand(['SET', `locks:${i + j}`, (i + j).toString(16).padStart(32, 'a'), 'PX', '600000']),
        ),
      );
    const netOut = async () =>
      Number(/total_net_output_bytes:(\d+)/.exec(String(await r.client.sendCommand(['INFO', 'stats'])))![1]);
    const measure = async (what: string, run: () => Promise<number>) => {
      global.gc?.();
      const [bytes0, rss0, heap0] = [await netOut(), process.memoryUsage().rss, process.memoryUsage().heapUsed];
      const started = performance.now();
      const listed = await run();
      const ms = performance.now() - started;
      const [bytes1, rss1, heap1] = [await netOut(), process.memoryUsage().rss, process.memoryUsage().heapUsed];
      return {
        what,
        listed,
        'Redis sent MB': round((bytes1 - bytes0) / MB, 2),
        'RSS growth MB': round((rss1 - rss0) / MB),
        'heap growth MB': round((heap1 - heap0) / MB),
        ms: round(ms),
      };
    };
    const store = await openSource(parseSource(source), { env: {}, role: 'console' });
    const bounded = () => store.list().then((p) => p.locks.length);
    const baseline = async () => {
      const keys = ((await r.client.sendCommand(['KEYS', 'locks:*'])) as string[]).map(String);
      let n = 0;
      for (let i = 0; i < keys.length; i += 500) {
        const values = await Promise.all(keys.slice(i, i + 500).map((k) => r.client.sendCommand(['GET', k])));
        n += values.filter((v) => v !== null).length;
      }
      return n;
    };
    await bounded(); // warm: the store's first listing loads its module and connects
    const rows = [await measure('bounded listing, 1 000 locks', bounded)];
    rows.push(await measure('GET every key, 1 000 locks', baseline));
    await r.client.sendCommand(['SETRANGE', 'locks:huge', String(64 * MB - 1), 'x']);
    rows.push(await measure('bounded listing + one 64 MB value', bounded));
    rows.push(await measure('GET every key + one 64 MB value', baseline));
    await store.close();
    const cliRss = (match: string) => {
      const report = "process.on('exit',()=>process.stderr.write('maxrss='+process.resourceUsage().maxRSS))";
      const out = spawnSync(process.execPath, [BIN, 'ls', `redis://127.0.0.1:${r.port}/0?match=${match}`], {
        env: { ...process.env, NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(report)}` },
        encoding: 'utf8',
      });
      return round(Number(/maxrss=(\d+)/.exec(out.stderr)?.[1]) / 1024);
    };
    const cli = [
      { what: 'lockboard ls, 1 000 locks', 'peak RSS MB': cliRss('locks:[0-9]*') },
      { what: 'lockboard ls, 1 000 locks + one 64 MB value', 'peak RSS MB': cliRss('locks:*') },
    ];
    printTable('Redis listing with one 64 MB value under the pattern (this process, in-process listing)', rows);
    printTable('The CLI (dist/) listing the same source', cli);
    writeJson('untrusted', { locks: LOCKS, listing: rows, cli });
  } finally {
    await r.stop();
  }
}
