// One process as an operator needs it named (facts-files §6): alive, a zombie (kill(pid, 0) still succeeds on one),
// or missing from this /proc; command, start time, user. Whether a pid named in a file is its holder: pid-check.ts.
import fs from 'node:fs';
import os from 'node:os';

export interface ProcessInfo {
  pid: number;
  state: 'alive' | 'zombie' | 'gone' | 'hidden';
  comm?: string;
  /** Start time, epoch ms (clock ticks since boot; 10 ms resolution). */
  startedMs?: number;
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22). */
  startTicks?: bigint;
  user?: string;
  /** The state letter of /proc/<pid>/stat: R running, S sleeping, D uninterruptible I/O, T stopped, t traced. */
  stateCode?: string;
}

let bootMs: number | undefined;
let users: Map<string, string> | undefined;
const TICK_MS = 10; // CLK_TCK is 100 on Linux

function bootTime(): number {
  if (bootMs === undefined) {
    const m = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'));
    bootMs = m ? Number(m[1]) * 1000 : 0;
  }
  return bootMs;
}

function userName(uid: string): string {
  if (!users) {
    users = new Map();
    try {
      for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
        const [name, , id] = line.split(':');
        if (name && id) users.set(id, name);
      }
    } catch {
      /* no passwd: uids are shown */
    }
  }
  return users.get(uid) ?? `uid ${uid}`;
}

/** A process as /proc shows it now; with `memo` (a listing pass's), each pid is read once per pass. */
export function processInfo(pid: number, memo?: Map<number, ProcessInfo>): ProcessInfo {
  const known = memo?.get(pid);
  if (known) return known;
  const info = readProcess(pid);
  memo?.set(pid, info);
  return info;
}

/** This process, through /proc/self (its pid in a /proc of another namespace would name another process). */
export const selfProcess = (): ProcessInfo => readProcess(process.pid, '/proc/self');

function readProcess(pid: number, at = `/proc/${pid}`): ProcessInfo {
  if (!Number.isInteger(pid) || pid <= 0 || !fs.existsSync(at)) return { pid, state: 'gone' };
  let stat: string;
  try {
    stat = fs.readFileSync(`${at}/stat`, 'utf8');
  } catch (err) {
    return { pid, state: (err as NodeJS.ErrnoException).code === 'EACCES' ? 'hidden' : 'gone' };
  }
  const close = stat.lastIndexOf(')');
  const comm = stat.slice(stat.indexOf('(') + 1, close);
  const fields = stat.slice(close + 2).split(' '); // fields[0] is field 3 (state)
  const startTicks = Number(fields[19]);
  let user: string | undefined;
  try {
    const uid = /^Uid:\s+(\d+)/m.exec(fs.readFileSync(`${at}/status`, 'utf8'))?.[1];
    if (uid !== undefined) user = userName(uid);
  } catch {
    /* exited meanwhile */
  }
  return {
    pid,
    state: fields[0] === 'Z' || fields[0] === 'X' ? 'zombie' : 'alive',
    comm,
    startedMs: bootTime() + startTicks * TICK_MS,
    startTicks: BigInt(startTicks),
    user,
    stateCode: fields[0],
  };
}

/** "pid 123 (python3, user root, started 2026-…)" */
export function describeProcess(p: ProcessInfo): string {
  const parts = [p.comm, p.user && `user ${p.user}`, p.startedMs && `started ${new Date(p.startedMs).toISOString()}`];
  return `pid ${p.pid} (${parts.filter(Boolean).join(', ')})`;
}

export type Liveness = 'live' | 'dead' | 'unknown';

export const thisHost = (): string => os.hostname();

let bootId: bigint | undefined;

/**
 * filelock ≥ 3.30's start token for a process (tox-dev/filelock src/filelock/_identity.py `process_start_token`,
 * Linux): `(boot_id << 64) | starttime`, the boot id's 32 hex digits read as one integer (0 when there is none).
 */
export function startToken(p: ProcessInfo): bigint | undefined {
  if (p.startTicks === undefined) return undefined;
  if (bootId === undefined) {
    try {
      bootId = BigInt(`0x${fs.readFileSync('/proc/sys/kernel/random/boot_id', 'ascii').trim().replace(/-/g, '')}`);
    } catch {
      bootId = 0n;
    }
  }
  return (bootId << 64n) | p.startTicks;
}
