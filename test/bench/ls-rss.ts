// Bounded output (#51): peak RSS of `lockboard ls SOURCE --json` piped into a slow reader (one that pauses every 200
// lines, so stdout fills and the CLI must wait for it), at 10 000 and 100 000 locks on the file store and on Redis.
// Flat means the stream holds a page, never the listing: the document mode holds at most STREAM_AT (10 000) locks.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN } from '../helpers/cli';
import { startRedis, type TestRedis } from '../helpers/redis';
import { printTable, round, writeJson } from './report';

export const RSS_SIZES = [10_000, 100_000];

const SLOW_READER = `import sys,time\nn=0\nfor l in sys.stdin:\n  n+=1\n  n%200==0 and time.sleep(0.01)\nprint(n)`;

export type RssRow = {
  store: string;
  locks: number;
  lines: number;
  'peak RSS MB': number;
  s: number;
};

/** Peak RSS (MB, from /usr/bin/time) of `ls SOURCE --json | slow reader`, and the lines the reader took in. */
export function lsPeakRss(store: string, source: string, locks: number): RssRow {
  const rssFile = path.join(os.tmpdir(), `lb-rss-${process.pid}-${store}-${locks}`);
  const t0 = performance.now();
  const out = execFileSync(
    'sh',
    [
      '-c',
      `/usr/bin/time -f %M -o ${rssFile} ${process.execPath} ${BIN} ls '${source}' --json | python3 -c '${SLOW_READER}'`,
    ],
    { maxBuffer: 1 << 20 },
  );
  const kb = Number(fs.readFileSync(rssFile, 'utf8').trim().split('\n').pop());
  fs.rmSync(rssFile, { force: true });
  const s = round((performance.now() - t0) / 1000);
  return { store, locks, lines: Number(out.toString().trim()), 'peak RSS MB': round(kb / 1024), s };
}

/** A directory of `n` empty lock files (stale O_EXCL locks as the listing sees them). */
export function seedFiles(n: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lb-rss-files-'));
  for (let i = 0; i < n; i++) fs.writeFileSync(path.join(dir, `l${String(i).padStart(7, '0')}.lock`), '');
  return dir;
}

/** `n` string locks `locks:<i>` (a 32-hex token with a TTL, as redis-py's Lock writes), pipelined 1 000 at a time; a database of its own each time. */
export async function seedRedis(r: TestRedis, n: number): Promise<void> {
  await r.client.sendCommand(['FLUSHALL']);
  for (let i = 0; i < n; i += 1000)
    await Promise.all(
      Array.from({ length: Math.min(1000, n - i) }, (_, j) =>
        r.client.sendCommand(['SET', `locks:${i + j}`, (i + j).toString(16).padStart(32, 'a'), 'PX', '3600000']),
      ),
    );
}

/** Every size on both stores: rows for the table. */
export async function measureLsRss(sizes = RSS_SIZES): Promise<RssRow[]> {
  const rows: RssRow[] = [];
  for (const n of sizes) {
    const dir = seedFiles(n);
    try {
      rows.push(lsPeakRss('files', `file://${dir}`, n));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const r = await startRedis();
  try {
    for (const n of sizes) {
      await seedRedis(r, n);
      rows.push(lsPeakRss('redis', `redis://127.0.0.1:${r.port}/0?match=locks:*`, n));
    }
  } finally {
    await r.stop();
  }
  return rows;
}

export async function benchLsRss() {
  const rows = await measureLsRss();
  printTable('ls --json | slow reader: peak RSS', rows);
  writeJson('ls-rss', { sizes: RSS_SIZES, rows });
}
