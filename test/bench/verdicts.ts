// npm run bench -- verdicts (issue #46 item 4): what a verdict per lock costs. Lock files at 10 000 and 100 000
// (VERDICT_SIZES to choose) whose holders are real processes: every page listed by the raw store (FilesLockStore, the
// /proc evidence read in its one holder scan a page) against the same store judged as the registry hands it out
// (judgedStore), alternating, best of RUNS each, in the same run; and the judging alone (withVerdict over the raw
// views), which is all the judged store adds, and each listing's CPU time, as the machine's load blurs wall time. Then the console's index of 1 000 000 judged locks
// (the judged views of the largest listing, each under INDEX_SIZE / size names) answering `verdict=gone`, alone, with a
// sort and with a text filter, against the same window with no verdict filter (goal: ≤ 1 s over 1 000 000).
import fs from 'node:fs';
import os from 'node:os';
import { FilesLockStore } from '@/lib/lock/stores/files/store';
import { parseFilesSource } from '@/lib/lock/stores/files/source';
import type { LockView } from '@/lib/lock/store';
import { LockIndex } from '@/lib/lock/query/lock-index';
import { runQuery, type LockQuery } from '@/lib/lock/query/query';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { withVerdict, zeroVerdicts } from '@/lib/lock/verdict/verdict';
import { listAll, startHolders, tempDir, writeLockFiles } from './verdicts-files';
import { printTable, quantile, round, writeJson } from './report';

const SIZES = (process.env.VERDICT_SIZES ?? '10000,100000').split(',').map(Number);
const INDEX_SIZE = Number(process.env.VERDICT_INDEX_SIZE ?? 1_000_000);
const RUNS = 3;

/** This process's CPU time (user + system) since `from`, in ms: less blurred than wall time by a loaded machine. */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};

function countVerdicts(views: LockView[]) {
  const c = zeroVerdicts();
  for (const v of views) if (v.verdict) c[v.verdict]++;
  return c;
}

async function filesLine(n: number, pids: Parameters<typeof writeLockFiles>[2]) {
  const dir = tempDir();
  try {
    writeLockFiles(dir, n, pids);
    const raw = new FilesLockStore(parseFilesSource(`file://${dir}`));
    const judged = judgedStore(raw);
    const rawMs: number[] = [];
    const judgedMs: number[] = [];
    const judgingMs: number[] = [];
    const rawCpu: number[] = [];
    const judgedCpu: number[] = [];
    let views: LockView[] = [];
    let pages = 0;
    for (let i = 0; i < RUNS; i++) {
      let cpu = process.cpuUsage();
      const r = await listAll(raw);
      rawCpu.push(cpuMs(cpu));
      rawMs.push(r.ms);
      cpu = process.cpuUsage();
      r.views.map(withVerdict); // the verdict alone: what the judged store adds to the raw views
      judgingMs.push(cpuMs(cpu));
      cpu = process.cpuUsage();
      const j = await listAll(judged);
      judgedCpu.push(cpuMs(cpu));
      judgedMs.push(j.ms);
      views = j.views;
      pages = j.pages;
    }
    const [r, j] = [Math.min(...rawMs), Math.min(...judgedMs)];
    const c = countVerdicts(views);
    const line = {
      store: 'lock files (/proc)',
      locks: views.length,
      pages,
      'raw list ms': round(r),
      'judged list ms': round(j),
      ratio: round(j / r, 3),
      'raw CPU ms': round(Math.min(...rawCpu)),
      'judged CPU ms': round(Math.min(...judgedCpu)),
      'CPU ratio': round(Math.min(...judgedCpu) / Math.min(...rawCpu), 3),
      'judging alone CPU ms': round(Math.min(...judgingMs)),
      verdicts: `gone ${c.gone} · stalled ${c.stalled} · alive ${c.alive} · unknown ${c.unknown}`,
    };
    console.log(line);
    return { line, views };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Median wall and CPU time of `runs` calls (a synchronous query: its CPU time is its cost without the load). */
function median(fn: () => unknown, runs = 5): { wall: number; cpu: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    fn();
    cpu.push(cpuMs(c));
    wall.push(performance.now() - t);
  }
  return { wall: round(quantile(wall, 0.5)), cpu: round(quantile(cpu, 0.5)) };
}

/** The console's index of `size` judged locks: `views` repeated under as many names as it takes. */
function indexLine(views: LockView[], size: number) {
  const index = new LockIndex();
  const now = Date.now();
  const started = performance.now();
  index.beginPass();
  for (let copy = 0; index.size < size; copy++)
    for (let i = 0; i < views.length && index.size < size; i++)
      index.upsert({ ...views[i]!, name: `host-${copy}/${views[i]!.name}` }, now);
  index.endPass();
  const buildMs = performance.now() - started;
  const id = 'file:///bench';
  const src = () => [{ id, rows: index.rows.values(), counts: index.counts, verdicts: index.verdicts, size }];
  let matched = 0;
  const q = (o: Partial<LockQuery>) =>
    median(() => (matched = runQuery(src(), { sort: 'name', order: 'asc', limit: 100, ...o }).matched));
  const gone = q({ verdict: 'gone' });
  const goneMatched = matched;
  const window = q({});
  const sorted = q({ verdict: 'gone', sort: 'expires', order: 'desc' });
  const text = q({ verdict: 'stalled', q: 'host-7/' });
  const line = {
    locks: index.size,
    'index build s': round(buildMs / 1000, 2),
    'window ms (CPU)': `${window.wall} (${window.cpu})`,
    'verdict=gone ms (CPU)': `${gone.wall} (${gone.cpu})`,
    'gone matched': goneMatched,
    'gone + sort expires ms (CPU)': `${sorted.wall} (${sorted.cpu})`,
    'stalled + text ms (CPU)': `${text.wall} (${text.cpu})`,
    'verdict counts': JSON.stringify(index.verdicts),
  };
  console.log(line);
  return line;
}

export async function benchVerdicts() {
  const load = os.loadavg().map((l) => round(l, 2));
  const holders = await startHolders();
  const files: Record<string, string | number>[] = [];
  let largest: LockView[] = [];
  try {
    for (const n of SIZES) {
      const { line, views } = await filesLine(n, holders);
      files.push(line);
      largest = views;
    }
  } finally {
    holders.stop();
  }
  printTable(`Verdicts: listing with verdicts (judged) vs without (raw store), best of ${RUNS}`, files);
  const index = INDEX_SIZE > 0 ? [indexLine(largest, INDEX_SIZE)] : [];
  if (index.length)
    printTable('Verdicts: the console index answering a verdict filter (median of 5: wall, and CPU)', index);
  const end = os.loadavg().map((l) => round(l, 2));
  console.log(`load average at start: ${load.join(' ')}, at the end: ${end.join(' ')} (${os.cpus().length} cores)`);
  writeJson('verdicts', { load, end, cores: os.cpus().length, files, index });
}
