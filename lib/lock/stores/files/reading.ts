// What a format makes of one entry: whether a live process holds it (then a release is refused), whether it is
// stale by its tool's own rule, or whether that cannot be known here (never "stale" on a guess).
import type { LockFormat } from '../../types';
import type { SignBasis } from '../../verdict/verdict';
import type { Entry } from './entry';
import { fstypeOf, isLocalFs } from './mounts';
import { devKey, type HolderScan, type KernelLock } from './proc';
import { pidBlindSpot } from './reach';
import { describeProcess, processInfo, type ProcessInfo } from './process';

export type FileStatus = 'live' | 'fresh' | 'stale' | 'unknown' | 'free';

export interface Reading {
  format: LockFormat;
  label: string;
  /** live: a process holds it (release refused); fresh: within its tool's heartbeat; free: not held at all. */
  status: FileStatus;
  /** One sentence: why that status. */
  why: string;
  /**
   * What a stale status rests on: `absence` (the holder was looked for everywhere it could run, and is not there) or
   * `rule` (its tool's expiry rule: contenders take it over, but its holder may still run). None: `rule`.
   */
  basis?: SignBasis;
  holder?: ProcessInfo;
  host?: string;
  pid?: string;
  details: [string, string][];
  /** When its tool's own rule makes it stale unless refreshed. */
  expiresMs?: number;
  ttlMs?: number;
  /** Fencing token (Lockboard's own lock). */
  generation?: string;
  /** The file inside a lock directory that the version names and a release removes (Lockboard's generation file). */
  member?: Entry;
}

export interface Context {
  scan: HolderScan;
  host: string;
  nowMs: number;
}

interface Holders {
  kernel: KernelLock[];
  /** Live processes with the file open or named by its kernel lock (zombies and dead pids left out). */
  procs: ProcessInfo[];
}

export function holdersOf(e: Entry, scan: HolderScan): Holders {
  if (!scan.inos.has(e.stat.ino)) return { kernel: [], procs: [] };
  const kernel = scan.locks.get(devKey(e.stat.dev, e.stat.ino)) ?? [];
  const pids = new Set<number>((scan.fds.get(`${e.stat.dev}:${e.stat.ino}`) ?? []).map((h) => h.pid));
  for (const k of kernel) if (k.pid > 0) pids.add(k.pid);
  const procs = [...pids].map((pid) => processInfo(pid, scan.processes)).filter((p) => p.state === 'alive');
  return { kernel, procs };
}

/**
 * Why a missing holder of `e` may only be invisible: the platform, other pid namespaces, hidepid, processes of other
 * users whose fds cannot be read, or other hosts sharing the filesystem.
 */
function blindSpot(scan: HolderScan, e: Entry): string | undefined {
  if (!scan.procfs) return 'this platform has no /proc: holders cannot be seen';
  const reach = pidBlindSpot(scan.reach);
  if (reach) return reach;
  if (scan.hidden > 0)
    return `${scan.hidden} processes of other users cannot be read as uid ${process.getuid?.() ?? '?'}: run as root to see every holder`;
  const fstype = fstypeOf(e.stat.dev, e.path, scan.mounts);
  if (!isLocalFs(fstype))
    return `the file is on ${fstype ?? 'a filesystem not known to be local'}, which other hosts may share: their processes cannot be seen from here; a look on each host that uses it settles it`;
  return undefined;
}

export const live = (r: Omit<Reading, 'status' | 'why'>, p: ProcessInfo, how: string): Reading => ({
  ...r,
  status: 'live',
  holder: p,
  pid: String(p.pid),
  why: `Held by live ${describeProcess(p)}${how}.`,
});

/** No holder seen: stale (on absence) if every process that could hold `e` could be seen, else unknown. */
export function noHolder(r: Omit<Reading, 'status' | 'why'>, e: Entry, scan: HolderScan, stale: string): Reading {
  const blind = blindSpot(scan, e);
  return blind
    ? { ...r, status: 'unknown', why: `No holder seen, but ${blind}.` }
    : { ...r, status: 'stale', basis: 'absence', why: stale };
}

/** A file whose kernel lock or open fd is held: named by the processes that hold it. */
export function heldBy(r: Omit<Reading, 'status' | 'why'>, h: Holders): Reading | null {
  const [first] = h.procs;
  const kinds = [...new Set(h.kernel.map((k) => k.kind))].join('/');
  const how = h.kernel.length ? ` (a ${kinds} lock)` : ' (the file kept open)';
  if (first) return live({ ...r, details: [...r.details, ...others(h.procs)] }, first, how);
  if (h.kernel.length)
    return { ...r, status: 'live', why: `Held by a ${kinds} lock whose process is not visible here.` };
  return null;
}

const others = (procs: ProcessInfo[]): [string, string][] =>
  procs.length > 1 ? [['Also held by', procs.slice(1).map(describeProcess).join('; ')]] : [];
