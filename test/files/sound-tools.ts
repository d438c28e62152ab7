// The topologies of facts-sound.md where a careless reader calls a live holder gone: a holder in another pid namespace
// (`unshare -p -f --mount-proc`, its pid chosen free on the host), an ext2 filesystem without birth times (a loop
// mount), a reader behind a /proc mounted hidepid=2 (in a mount namespace of its own). Each started process and mount
// is undone by `undoAll`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN } from '../helpers/cli';
import { need } from './tools';

export const NODE = process.execPath;

/** Fails (never skips) where the recipes cannot run, saying what to install. */
export function needRecipes(): void {
  if (process.getuid?.() !== 0)
    throw new Error('these tests need root (unshare -p, mount, ns_last_pid): run them as root');
  need('unshare', 'apt-get install util-linux');
  need('mkfs.ext2', 'apt-get install e2fsprogs');
  need('su', 'apt-get install login (or util-linux)');
  need('losetup', 'apt-get install mount');
}

const started: ChildProcess[] = [];
const mounts: string[] = [];

/**
 * A pid P such that neither P nor P+1 is a process here, and far ahead of the next pids this host hands out (tests
 * running beside fork many): a holder given P+1 elsewhere is never alive here by luck.
 */
export function freePid(): number {
  const max = Number(fs.readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
  const last = Number(fs.readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'));
  for (;;) {
    const p = 300 + Math.floor(Math.random() * (max - 302));
    const ahead = (p - last + max) % max; // how soon this host's allocator reaches p
    if (ahead > 5000 && !fs.existsSync(`/proc/${p}`) && !fs.existsSync(`/proc/${p + 1}`)) return p;
  }
}

/**
 * Runs `script` in a new pid namespace whose next pid is P+1 (the first process bash forks). The trailing `; true`
 * keeps bash from exec'ing the last command as pid 1, which exists in every namespace. --kill-child: the whole
 * namespace dies with the unshare process.
 */
export function inPidNamespace(p: number, script: string): ChildProcess {
  const child = spawn(
    'unshare',
    [
      '--kill-child',
      '-p',
      '-f',
      '--mount-proc',
      'bash',
      '-c',
      `echo ${p} > /proc/sys/kernel/ns_last_pid; ${script}; true`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  started.push(child);
  return child;
}

/** A background process here, stopped by undoAll. */
export function background(cmd: string, args: string[]): ChildProcess {
  const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
  started.push(child);
  return child;
}

/** The lockboard command line, as a shell word list (for scripts run in namespaces or as another user). */
export const lockboard = (args: string[]) => [NODE, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');

/** An ext2 filesystem with 128-byte inodes (no birth time) loop-mounted at a new directory under `base`. */
export function ext2Mount(base: string): string {
  const img = path.join(base, 'ext2.img');
  const mnt = path.join(base, 'ext2');
  fs.mkdirSync(mnt);
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  };
  run('truncate', ['-s', '24M', img]);
  run('mkfs.ext2', ['-q', '-I', '128', img]);
  run('mount', ['-o', 'loop', img, mnt]);
  mounts.push(mnt);
  fs.chmodSync(mnt, 0o777);
  return mnt;
}

/** `command` run as nobody behind a /proc mounted hidepid=2, in a mount namespace of its own (the host's /proc stays). */
export interface Shell {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function asNobodyBehindHidepid(command: string): Shell {
  const inner = `mount -t proc -o hidepid=2 proc /proc && su -s /bin/sh nobody -c ${JSON.stringify(command)}`;
  const r = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', inner], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `command` run in a new pid namespace with its own /proc (a container's view), as root. */
export function inContainer(command: string): Shell {
  const r = spawnSync('unshare', ['-p', '-f', '--mount-proc', 'sh', '-c', `${command}; exit $?`], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export async function undoAll(): Promise<void> {
  for (const c of started.splice(0)) {
    try {
      process.kill(-c.pid!, 'SIGKILL'); // unshare (--kill-child takes its namespace along), or a holder's group
    } catch {
      /* gone */
    }
  }
  for (const m of mounts.splice(0)) spawnSync('umount', ['-l', m]);
}
