// The contract on lock files: a directory of its own, a lock written by lockfile-progs (`lockfile-create`, Debian's
// lockfile-progs), its successor by lockfile-remove + lockfile-create, and a data file beside it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FilesLockStore, parseFilesSource } from '@/lib/lock/stores/files';
import type { Harness } from './harnesses';

function lockfileProgs(args: string[]) {
  try {
    execFileSync(args[0]!, args.slice(1), { stdio: 'pipe' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`${args[0]} is missing: apt-get install lockfile-progs`);
    throw err;
  }
}

export async function filesHarness(): Promise<Harness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lb-contract-files-'));
  const lock = path.join(dir, 'nightly.lock');
  return {
    kind: 'files',
    source: `file://${dir}`,
    env: {},
    lock: 'nightly.lock',
    notALock: 'report.csv',
    hold() {
      // without --use-pid: lockfile-progs' 5-minute rule (a pid would be this test runner, alive: a refused release)
      lockfileProgs(['lockfile-create', '--lock-name', '--retry', '0', lock]);
      fs.writeFileSync(path.join(dir, 'report.csv'), 'day,count\n2026-11-25,3\n');
      return Promise.resolve();
    },
    successor() {
      lockfileProgs(['lockfile-remove', '--lock-name', lock]);
      lockfileProgs(['lockfile-create', '--lock-name', '--retry', '0', lock]);
      return Promise.resolve();
    },
    stop() {
      fs.rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
    direct: () => new FilesLockStore(parseFilesSource(`file://${dir}`)),
  };
}
