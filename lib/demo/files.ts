// The demo's lock directory: lock files written by the real tools, with a live holder (the seed's MachineLock in
// Debian's python3, or flock(1)), a holder that crashed (killed with SIGKILL, its O_EXCL file left behind), a stale
// git index.lock (a `git commit` killed with SIGKILL while its pre-commit hook ran), a lockfile-progs lock whose pid
// exited, and Lockboard's own lock taken in a loop.
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { withFileLock } from '../lock/stores/files';
import { background } from './background';
import { signalGroup, spawnGroup } from './children';
import { sleep } from './sleep';
import type { Stopper } from './stopper';

export interface DemoFiles {
  url: string;
  loops: Promise<void>[];
  stop(): Promise<void>;
}

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

/** A child that prints once it holds, resolved then (or null when it exited first). */
function holding(cmd: string, args: string[], cwd?: string): Promise<ChildProcess | null> {
  const child = spawnGroup(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', () => resolve(null));
  });
}

const MACHINE_LOCK = `import os, sys, time
fd = os.open(sys.argv[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644); print(os.getpid(), flush=True); time.sleep(86400)`;

async function staleGitLock(dir: string): Promise<void> {
  const repo = path.join(dir, 'site');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=demo', '-c', 'user.email=demo@example.com', ...args], {
      cwd: repo,
      stdio: 'ignore',
    });
  fs.mkdirSync(repo);
  git('init', '-q');
  fs.writeFileSync(path.join(repo, 'index.html'), '<h1>v1</h1>\n');
  git('add', 'index.html');
  git('commit', '-qm', 'v1');
  fs.writeFileSync(path.join(repo, 'index.html'), '<h1>v2</h1>\n');
  fs.writeFileSync(path.join(repo, '.git/hooks/pre-commit'), '#!/bin/sh\necho checking\nsleep 60\n', { mode: 0o755 });
  const commit = await holding('sh', ['-c', 'exec git -c user.name=demo -c user.email=d@e commit -aqm v2 2>&1'], repo);
  if (commit) signalGroup(commit, 'SIGKILL'); // git and its hook: index.lock stays
  fs.rmSync(path.join(repo, '.git/hooks/pre-commit'));
}

export async function startDemoFiles(dataDir: string, stop: Stopper): Promise<DemoFiles> {
  const dir = path.join(dataDir, 'lock-files');
  fs.mkdirSync(dir, { recursive: true });
  // the last run's lock files go; its audit trail (.lockboard, the source's default ?audit=) stays, as other trails do
  for (const entry of fs.readdirSync(dir))
    if (entry !== '.lockboard') fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  const children: ChildProcess[] = [];
  const python = fs.existsSync('/usr/bin/python3');
  const live = python
    ? await holding('/usr/bin/python3', ['-c', MACHINE_LOCK, path.join(dir, 'nightly-report.lock')])
    : await holding('sh', ['-c', `echo held; exec flock ${dir}/nightly-report.lock sleep 86400`]);
  if (live) children.push(live);
  const crashed = await holding(process.execPath, [
    '-e',
    `require('fs').openSync(${JSON.stringify(path.join(dir, 'invoice-export.lock'))}, 'wx'); console.log(1); setInterval(() => {}, 1e6)`,
  ]);
  crashed?.kill('SIGKILL');
  if (has('git')) await staleGitLock(dir);
  else console.log('Lock files: git is not installed, so the demo shows no stale git lock (apt-get install git).');
  if (has('lockfile-create'))
    spawnSync('sh', ['-c', `lockfile-create --use-pid --lock-name --retry 0 ${dir}/mail-spool.lock`]);
  fs.writeFileSync(path.join(dir, 'README.txt'), 'Lock files of the Lockboard demo: not a lock itself.\n');
  const loop = background('lock file rotate-logs', stop, async (signal) => {
    await withFileLock({ dir, name: 'rotate-logs', ttlMs: 10_000, purpose: 'log rotation', signal }, () =>
      sleep(20_000, signal),
    ).catch(() => undefined);
    if (!signal.aborted) await sleep(5_000, signal);
  });
  return {
    url: `file://${dir}?depth=2`,
    loops: [loop],
    async stop() {
      for (const c of children) signalGroup(c, 'SIGKILL');
      await loop;
    },
  };
}
