// The verdicts bench's lock files: a directory of N files whose holders are real processes of this bench — sleeping
// (alive), SIGSTOPped (stalled), exited (gone), on another host (unknown), or none at all (an empty O_EXCL file: gone)
// — listed page by page by the raw FilesLockStore and by the same store judged (lib/lock/verdict/judged-store.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LockStore, LockView } from '@/lib/lock/store';

/** Two sleepers (one of them stopped) and the pid of a process that has exited, for the files to name. */
export async function startHolders(): Promise<{ alive: number; stopped: number; dead: number; stop(): void }> {
  const sleeper = () => spawn('sleep', ['3600'], { stdio: 'ignore' });
  const alive = sleeper();
  const stopped = sleeper();
  stopped.kill('SIGSTOP');
  const exited: ChildProcess = spawn('true', { stdio: 'ignore' });
  await new Promise((resolve) => exited.once('exit', resolve));
  return {
    alive: alive.pid!,
    stopped: stopped.pid!,
    dead: exited.pid!,
    stop() {
      stopped.kill('SIGKILL');
      alive.kill('SIGKILL');
    },
  };
}

/** Per ten files: 4 alive, 1 stalled, 3 gone (a pid that exited), 1 on another host, 1 empty with no holder. */
export function writeLockFiles(dir: string, n: number, pids: { alive: number; stopped: number; dead: number }): void {
  for (let i = 0; i < n; i++) {
    const k = i % 10;
    const id = String(i).padStart(7, '0');
    if (k === 9) fs.writeFileSync(path.join(dir, `job-${id}.lock`), '');
    else if (k === 8) fs.writeFileSync(path.join(dir, `job-${id}.lock`), `${pids.alive}\nbuild-host-7\n`);
    else {
      const pid = k < 4 ? pids.alive : k === 4 ? pids.stopped : pids.dead;
      fs.writeFileSync(path.join(dir, `job-${id}.pid`), `${pid}\n`);
    }
  }
}

export const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'lb-bench-verdicts-'));

/** Every page of the listing: the views and the time it took. */
export async function listAll(store: LockStore): Promise<{ ms: number; views: LockView[]; pages: number }> {
  const views: LockView[] = [];
  const started = performance.now();
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await store.list(token);
    views.push(...page.locks);
    pages++;
    token = page.nextPageToken;
  } while (token);
  return { ms: performance.now() - started, views, pages };
}
