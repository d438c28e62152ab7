// Mutual exclusion under faults: N worker processes × M critical sections on one lock, against one emulator with
// latency 0–50 ms, 5 % 503, 2 % dropped responses and the write-rate limit on, while workers are randomly SIGKILLed
// and SIGSTOPped. Prints a table, writes bench-results/fault.json. `npm run test:fault -- --workers 6 --sections 20`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Storage } from '@google-cloud/storage';
import { startEmulator } from '@/lib/emulator';
import { listAuditEvents } from '@/lib/lock';
import { FencedResource, type ResourceReport } from './resource';

export interface MutexReport extends ResourceReport {
  workers: number;
  sectionsPerWorker: number;
  sectionsCompleted: number;
  killed: number;
  stopped: number;
  takeovers: number;
  takeoverDelayAfterTtlMs: { median: number | null; max: number | null };
  durationMs: number;
}

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

export async function runMutexCheck(opts: {
  workers: number;
  sections: number;
  ttlMs: number;
  chaosEveryMs: number;
  maxDurationMs: number;
}): Promise<MutexReport> {
  const started = Date.now();
  const emulator = await startEmulator({
    buckets: ['fault-bucket'],
    faults: {
      rules: [{ latencyMs: [0, 50] }, { errorRate: 0.05, errorStatus: 503 }, { dropResponseRate: 0.02 }],
      rateLimit: { enabled: true },
    },
  });
  const resource = new FencedResource();
  const { url: resourceUrl, server } = await resource.listen();
  const live = new Map<string, ChildProcess>();
  let completed = 0;
  let killed = 0;
  let stopped = 0;
  let spawned = 0;
  const spawnWorker = (sections: number): Promise<void> => {
    const id = `w${spawned++}`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', WORKER, emulator.url, 'fault-bucket', resourceUrl, id, String(sections), String(opts.ttlMs)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    live.set(id, child);
    child.stdout!.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n').filter(Boolean)) {
        if ((JSON.parse(line) as { section?: number }).section !== undefined) completed++;
      }
    });
    return new Promise((resolve) =>
      child.once('exit', () => {
        live.delete(id);
        resource.forget(id);
        resolve();
      }),
    );
  };
  const runs = Array.from({ length: opts.workers }, () => spawnWorker(opts.sections));
  const replacements: Promise<void>[] = [];
  const chaos = setInterval(() => {
    const ids = [...live.keys()];
    if (ids.length === 0) return;
    const id = ids[Math.floor(Math.random() * ids.length)]!;
    const child = live.get(id)!;
    if (Math.random() < 0.4) {
      child.kill('SIGKILL');
      killed++;
      replacements.push(spawnWorker(Math.max(1, Math.floor(opts.sections / 2))));
    } else {
      child.kill('SIGSTOP');
      stopped++;
      setTimeout(() => child.kill('SIGCONT'), opts.ttlMs * (0.3 + Math.random() * 1.2));
    }
  }, opts.chaosEveryMs);
  const deadline = setTimeout(() => {
    for (const c of live.values()) c.kill('SIGKILL');
  }, opts.maxDurationMs);
  await Promise.all(runs);
  clearInterval(chaos);
  await Promise.all(replacements);
  clearTimeout(deadline);

  emulator.faults.clear();
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'fault' });
  const { events } = await listAuditEvents({
    storage,
    bucket: 'fault-bucket',
    auditPrefix: '.lockboard/audit/',
    from: new Date(started - 60_000),
    to: new Date(Date.now() + 60_000),
    events: ['took-over'],
  });
  const delays = events.map((e) => e.stale_ms ?? 0).sort((a, b) => a - b);
  server.close();
  await emulator.close();
  return {
    workers: opts.workers,
    sectionsPerWorker: opts.sections,
    sectionsCompleted: completed,
    killed,
    stopped,
    takeovers: events.length,
    takeoverDelayAfterTtlMs: {
      median: delays.length ? delays[Math.floor(delays.length / 2)]! : null,
      max: delays.length ? delays[delays.length - 1]! : null,
    },
    durationMs: Date.now() - started,
    ...resource.report,
  };
}

export function printReport(r: MutexReport): void {
  const rows: [string, string | number][] = [
    ['workers × sections', `${r.workers} × ${r.sectionsPerWorker}`],
    ['critical sections completed', r.sectionsCompleted],
    ['workers SIGKILLed / SIGSTOPped', `${r.killed} / ${r.stopped}`],
    ['accepted overlaps (must be 0)', r.acceptedOverlaps],
    ['lock-level overlaps seen by the resource', r.lockOverlaps],
    ['rejected stale-token writes', r.rejectedStaleWrites],
    ['takeovers of killed holders', r.takeovers],
    [
      'takeover delay after TTL, median / max',
      `${r.takeoverDelayAfterTtlMs.median ?? '-'} / ${r.takeoverDelayAfterTtlMs.max ?? '-'} ms`,
    ],
    ['duration', `${(r.durationMs / 1000).toFixed(1)} s`],
  ];
  for (const [k, v] of rows) console.log(`${k.padEnd(42)} ${v}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      workers: { type: 'string', default: '6' },
      sections: { type: 'string', default: '10' },
      ttl: { type: 'string', default: '2000' },
      'chaos-every': { type: 'string', default: '1500' },
      'max-duration': { type: 'string', default: '300000' },
    },
  });
  const report = await runMutexCheck({
    workers: Number(values.workers),
    sections: Number(values.sections),
    ttlMs: Number(values.ttl),
    chaosEveryMs: Number(values['chaos-every']),
    maxDurationMs: Number(values['max-duration']),
  });
  printReport(report);
  mkdirSync('bench-results', { recursive: true });
  writeFileSync('bench-results/fault.json', JSON.stringify(report, null, 2));
  console.log('wrote bench-results/fault.json');
  process.exitCode = report.acceptedOverlaps === 0 ? 0 : 1;
}
