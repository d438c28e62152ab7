// Lock holders written by the real tools (Debian's python3 with the seed's MachineLock and python3-filelock,
// util-linux flock, lockfile-progs, git, npm proper-lockfile), each started in a directory of its own and stopped by
// the test that started it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FilesLockStore } from '@/lib/lock/stores/files/store';
import { parseFilesSource } from '@/lib/lock/stores/files/source';

export const PYTHON = '/usr/bin/python3';

export function need(tool: string, install: string): void {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) throw new Error(`${tool} is missing: ${install}`);
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'lb-files-'));
}

export const storeOf = (dir: string, query = '') => new FilesLockStore(parseFilesSource(`file://${dir}${query}`));

const started: ChildProcess[] = [];

/** Starts a holder and resolves once it printed a line (it holds the lock then). */
export function startHolder(cmd: string, args: string[], o: { cwd?: string } = {}): Promise<ChildProcess> {
  const child = spawn(cmd, args, { cwd: o.cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  started.push(child);
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${cmd} exited ${code} before holding: ${err}`)));
  });
}

/** The seed's MachineLock (facts-redis-postgres: O_CREAT|O_EXCL, fd kept open) in Debian's python3. */
export const MACHINE_LOCK = `
import os, sys, time
class MachineLock:
    def __init__(self, name, d): self.path = os.path.join(d, name + ".lock"); self.fd = None
    def acquire(self): self.fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    def release(self): os.close(self.fd); os.unlink(self.path)
lock = MachineLock(sys.argv[1], sys.argv[2]); lock.acquire(); print(os.getpid(), flush=True); time.sleep(120)
`;

export async function killAndWait(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await gone;
}

export async function stopAll(): Promise<void> {
  for (const c of started.splice(0)) {
    try {
      process.kill(-c.pid!, 'SIGKILL'); // the holder and its children (flock's command, git's hook)
    } catch {
      /* gone */
    }
  }
}

export async function until<T>(fn: () => T | Promise<T>, what: string, ms = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
