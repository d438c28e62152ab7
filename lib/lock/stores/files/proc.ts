// Who holds a file on this machine (facts-files §1): the kernel's lock table (/proc/locks: flock, POSIX, OFD; keyed
// by MAJ:MIN:INO in hex) and a scan of every process's open fds matched by device and inode (stat() on the magic
// link, never its text). /proc/locks alone misleads: a flock outlives the pid it names when a child keeps the fd.
import fs from 'node:fs';
import type { InnerPids } from './inner-pids';
import { readMounts, type Mounts } from './mounts';
import type { ProcessInfo } from './process';
import { readReach, type Reach } from './reach';

export interface KernelLock {
  kind: string;
  access: string;
  /** The pid the kernel names (-1 for OFD locks, possibly dead for flock). */
  pid: number;
}

interface FdHolder {
  pid: number;
  fd: string;
}

/** One machine-wide reading, taken once per listing. */
export interface HolderScan {
  locks: Map<string, KernelLock[]>;
  fds: Map<string, FdHolder[]>;
  /** Processes whose fds this user may not read (EACCES): holders among them cannot be seen. */
  hidden: number;
  /** False where /proc is not there (not Linux): nothing about holders can be known. */
  procfs: boolean;
  /** Processes by pid with their cwd (for git: a git process working in a repository). */
  cwds: Map<number, string>;
  /** Every inode number that is locked or open somewhere: most files are in neither, and are passed at once. */
  inos: Set<bigint>;
  /** Processes read during this scan's pass, by pid: a holder named by many files is read from /proc once. */
  processes: Map<number, ProcessInfo>;
  /** How far this /proc reaches (other pid namespaces, hidepid): where a missing pid proves nothing. */
  reach: Reach;
  /** The mounts of this pass: which filesystem each lock file is on. */
  mounts: Mounts;
  /** Inner pids of nested pid namespaces, read once per pass when a pid is first found missing (inner-pids.ts). */
  inner?: InnerPids;
}

/** glibc's major/minor split of st_dev, as /proc/locks prints it. */
export function devKey(dev: bigint, ino: bigint): string {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}:${ino}`;
}

const LINE = /^\d+: (-> )?(\S+)\s+\S+\s+(\S+)\s+(-?\d+)\s+([0-9a-f]+:[0-9a-f]+:\d+)\s+\d+\s+\S+$/;

export function parseProcLocks(text: string): Map<string, KernelLock[]> {
  const out = new Map<string, KernelLock[]>();
  for (const line of text.split('\n')) {
    const m = LINE.exec(line.trim());
    if (!m || m[1]) continue; // a blocked waiter ("->") holds nothing
    const list = out.get(m[5]!) ?? [];
    list.push({ kind: m[2]!, access: m[3]!, pid: Number(m[4]) });
    out.set(m[5]!, list);
  }
  return out;
}

const pids = (): number[] => {
  try {
    return fs
      .readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [];
  }
};

/** The lock table and every readable fd, keyed `dev:ino` (decimal bigint strings). */
export function scanHolders(): HolderScan {
  let text: string;
  const mounts = readMounts();
  const reach = readReach(mounts);
  const empty = { locks: new Map(), hidden: 0, cwds: new Map(), inos: new Set<bigint>(), processes: new Map() };
  try {
    text = fs.readFileSync('/proc/locks', 'utf8');
  } catch {
    return { ...empty, fds: new Map(), procfs: false, reach, mounts };
  }
  const fds = new Map<string, FdHolder[]>();
  const cwds = new Map<number, string>();
  let hidden = 0;
  for (const pid of pids()) {
    if (pid === process.pid) continue;
    let entries: string[];
    try {
      entries = fs.readdirSync(`/proc/${pid}/fd`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EACCES') hidden++;
      continue;
    }
    try {
      cwds.set(pid, fs.readlinkSync(`/proc/${pid}/cwd`));
    } catch {
      /* exited meanwhile */
    }
    for (const fd of entries) {
      try {
        const s = fs.statSync(`/proc/${pid}/fd/${fd}`, { bigint: true });
        if (!s.isFile() && !s.isDirectory()) continue;
        const key = `${s.dev}:${s.ino}`;
        const list = fds.get(key) ?? [];
        list.push({ pid, fd });
        fds.set(key, list);
      } catch {
        /* closed meanwhile, or a socket */
      }
    }
  }
  return withLockTable({ ...empty, fds, hidden, procfs: true, cwds, reach, mounts }, text);
}

/** A scan whose open files are reused (a burst of inspections) with the kernel's lock table read afresh. */
export function withLockTable(scan: HolderScan, text?: string): HolderScan {
  if (!scan.procfs) return scan;
  let table = text;
  try {
    table ??= fs.readFileSync('/proc/locks', 'utf8');
  } catch {
    table = '';
  }
  const locks = parseProcLocks(table);
  const inos = new Set<bigint>();
  for (const key of [...locks.keys(), ...scan.fds.keys()]) inos.add(BigInt(key.slice(key.lastIndexOf(':') + 1)));
  // a reused scan still reads each holder, and each nested namespace's pids, afresh
  return { ...scan, locks, inos, processes: new Map(), inner: undefined };
}
