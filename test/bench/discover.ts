// npm run bench -- discover: `lockboard discover` with its default bounds (lib/cli/discover: 10 000 keys, 200
// requests, 60 s per target) on a 1 000 000-key Redis (20 of them locks) and a 100 000-object bucket on the
// emulator (in a process of its own, as a user's store is remote), beside what a user would otherwise run: every key
// by `redis-cli --scan | wc -l`, every object by a full listing. Requests are the server's own count for Redis
// (INFO stats: SCAN pages and the reads of each key's value and expiry), beside the listing requests discover
// counts against --max-requests, and the pages asked for on the bucket; memory is this process's peak heap above where it started
// (redis-cli's peak RSS from /usr/bin/time).
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Storage } from '@google-cloud/storage';
import { DEFAULT_LIMITS } from '@/lib/cli/discover/budget';
import { discoverTarget, type TargetReport } from '@/lib/cli/discover/walk';
import { startRedis } from '../helpers/redis';
import { printTable, round, writeJson } from './report';

const KEYS = 1_000_000;
const OBJECTS = 100_000;
const MB = 1024 * 1024;

/** `fn` timed, with this process's peak heap above its start (sampled every 20 ms). */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number; heapMb: number }> {
  const start = process.memoryUsage().heapUsed;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
  const t0 = performance.now();
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    return { value, seconds: (performance.now() - t0) / 1000, heapMb: Math.max(0, (peak - start) / MB) };
  } finally {
    clearInterval(timer);
  }
}

const discover = (target: string, env: Record<string, string>) =>
  measured(() => discoverTarget(target, DEFAULT_LIMITS, env, () => {}));

const found = (r: TargetReport) =>
  r.candidates.map((c) => c.source).join(' ') || (r.problems[0] ?? r.unreachable ?? 'nothing');

async function redisRows() {
  const r = await startRedis(['--enable-debug-command', 'yes', '--save', '']);
  try {
    await r.client.sendCommand(['DEBUG', 'POPULATE', String(KEYS - 20), 'data']);
    for (let i = 0; i < 20; i++) await r.client.sendCommand(['SET', `lock:job-${i}`, `token-${i}`, 'PX', '600000']);
    const processed = async () =>
      Number(/total_commands_processed:(\d+)/.exec(String(await r.client.sendCommand(['INFO', 'stats'])))![1]);
    const before = await processed();
    const d = await discover(`redis://127.0.0.1:${r.port}`, {});
    const discoverCommands = (await processed()) - before - 1;
    const before2 = await processed();
    const t0 = performance.now();
    const cli = spawnSync('sh', ['-c', `/usr/bin/time -f '%M' redis-cli -p ${r.port} --scan | wc -l`], {
      encoding: 'utf8',
    });
    const seconds = (performance.now() - t0) / 1000;
    const scanCommands = (await processed()) - before2 - 1;
    return [
      {
        store: `Redis, ${KEYS} keys`,
        run: 'lockboard discover (default bounds)',
        requests: `${d.value.requests} listing (${discoverCommands} commands)`,
        read: d.value.sampled,
        seconds: round(d.seconds, 2),
        memoryMb: round(d.heapMb),
        found: found(d.value),
      },
      {
        store: `Redis, ${KEYS} keys`,
        run: 'redis-cli --scan | wc -l',
        requests: `${scanCommands} SCAN`,
        read: Number(cli.stdout.trim()),
        seconds: round(seconds, 2),
        memoryMb: round(Number(cli.stderr.trim().split('\n').at(-1)) / 1024),
        found: 'a count of keys, no formats',
      },
    ];
  } finally {
    await r.stop();
  }
}

async function bucketRows() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/ls-emulator.ts', String(OBJECTS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [line] = await createInterface({ input: child.stdout })
      [Symbol.asyncIterator]()
      .next()
      .then((l) => [l.value]);
    const { gcs } = JSON.parse(line as string) as { gcs: string };
    const d = await discover('gs://cold', { LOCKBOARD_GCS_ENDPOINT: gcs });
    const storage = new Storage({ apiEndpoint: gcs, projectId: 'bench' });
    const full = await measured(async () => {
      let pages = 0;
      let objects = 0;
      let pageToken: string | undefined;
      do {
        const [files, next] = await storage
          .bucket('cold')
          .getFiles({ autoPaginate: false, maxResults: 1000, pageToken });
        pages++;
        objects += files.length;
        pageToken = (next as { pageToken?: string } | null)?.pageToken;
      } while (pageToken);
      return { pages, objects };
    });
    return [
      {
        store: `GCS emulator, ${OBJECTS} objects`,
        run: 'lockboard discover (default bounds)',
        requests: `${d.value.requests} listing + ≤${d.value.sampled} bodies`,
        read: d.value.sampled,
        seconds: round(d.seconds, 2),
        memoryMb: round(d.heapMb),
        found: found(d.value),
      },
      {
        store: `GCS emulator, ${OBJECTS} objects`,
        run: 'full listing (getFiles, 1 000 a page)',
        requests: full.value.pages,
        read: full.value.objects,
        seconds: round(full.seconds, 2),
        memoryMb: round(full.heapMb),
        found: 'names only, no formats',
      },
    ];
  } finally {
    child.kill('SIGTERM');
  }
}

export async function benchDiscover(): Promise<void> {
  const rows = [...(await redisRows()), ...(await bucketRows())];
  printTable('lockboard discover, default bounds, beside the baseline', rows);
  writeJson('discover', { limits: DEFAULT_LIMITS, rows });
}
