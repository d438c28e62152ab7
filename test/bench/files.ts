// Lock files: listing a directory of 100 000 lock files (empty O_EXCL files, lockfile-progs, pid files, SoftFileLock
// bodies) against the bare `readdir` + `lstat` a user's own script would run (the ratio is the cost of reading each
// file as its tool's convention); the machine-wide holder scan (/proc/locks and every process's fds) on its own; and
// the release protocol's latency (check, rename aside, verify, remove) with its serialising lock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scanHolders } from '@/lib/lock/stores/files/proc';
import { removeIfSame } from '@/lib/lock/stores/files/release';
import { entryAt, identityOf, versionOf } from '@/lib/lock/stores/files/entry';
import { FilesLockStore } from '@/lib/lock/stores/files';
import { parseFilesSource } from '@/lib/lock/stores/files/source';
import { printTable, quantile, round, writeJson } from './report';

const FILES = Number(process.env.FILES_BENCH_N ?? 100_000);
const RUNS = 3;

function best(fn: () => unknown, runs = RUNS): number {
  let ms = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    ms = Math.min(ms, performance.now() - t);
  }
  return ms;
}

async function bestAsync(fn: () => Promise<unknown>): Promise<number> {
  let ms = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    ms = Math.min(ms, performance.now() - t);
  }
  return ms;
}

export async function benchFiles() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lb-bench-files-'));
  try {
    const host = os.hostname();
    for (let i = 0; i < FILES; i++) {
      const body = ['', '0\n', `${100000 + i}\n`, `${100000 + i}\n${host}\n`][i % 4]!;
      fs.writeFileSync(path.join(dir, i % 4 === 2 ? `job-${i}.pid` : `job-${i}.lock`), body);
    }
    const rows: Record<string, string | number>[] = [];
    const bare = best(() => {
      for (const n of fs.readdirSync(dir)) fs.lstatSync(path.join(dir, n), { bigint: true });
    });
    rows.push({ step: 'bare readdir + lstat (baseline)', files: FILES, locks: '-', ms: round(bare), ratio: 1 });
    const withBodies = best(() => {
      for (const n of fs.readdirSync(dir)) {
        const p = path.join(dir, n);
        if (fs.lstatSync(p, { bigint: true }).size > 0n) fs.readFileSync(p);
      }
    });
    rows.push({
      step: 'readdir + lstat + read each body',
      files: FILES,
      locks: '-',
      ms: round(withBodies),
      ratio: round(withBodies / bare, 2),
    });
    const store = new FilesLockStore(parseFilesSource(`file://${dir}`));
    let found = 0;
    const listed = await bestAsync(async () => (found = (await store.list()).locks.length));
    rows.push({
      step: 'FilesLockStore.list',
      files: FILES,
      locks: found,
      ms: round(listed),
      ratio: round(listed / bare, 2),
    });
    let procs = 0;
    let fds = 0;
    const scan = best(() => {
      const s = scanHolders();
      procs = s.cwds.size;
      fds = [...s.fds.values()].reduce((n, l) => n + l.length, 0);
    }, 5);
    rows.push({
      step: `holder scan (${procs} processes, ${fds} open files)`,
      files: '-',
      locks: '-',
      ms: round(scan, 2),
      ratio: '-',
    });
    const latencies: number[] = [];
    for (let i = 0; i < 500; i++) {
      const p = path.join(dir, `release-${i}.lock`);
      fs.writeFileSync(p, '');
      const v = versionOf(identityOf(entryAt(p, 'x.lock')!));
      const t = performance.now();
      const r = await removeIfSame(p, 'x.lock', v, path.join(dir, '.lockboard', 'release'));
      latencies.push(performance.now() - t);
      if (r.outcome !== 'released') throw new Error(`release ${i}: ${r.outcome}`);
    }
    rows.push({
      step: 'release protocol (p50 / p99 of 500)',
      files: '-',
      locks: '-',
      ms: `${round(quantile(latencies, 0.5), 3)} / ${round(quantile(latencies, 0.99), 3)}`,
      ratio: '-',
    });
    printTable(`Lock files: a directory of ${FILES} lock files (best of ${RUNS})`, rows);
    writeJson('files', { files: FILES, rows });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
