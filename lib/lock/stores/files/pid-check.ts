// A pid written in a lock file, judged from here (facts-files §6, docs/verdict.md): live, dead (only on proof), or
// unknown naming what cannot be seen. A pid missing from /proc is proof only where /proc lists every namespace the
// writer could have run in, none of them has that pid, and the file is not shared with other hosts. A start after the
// file's mtime proves reuse only on a local filesystem (one clock stamps both) and beyond REUSE_BOUND_MS.
import { readInnerPids } from './inner-pids';
import { fstypeOf, isLocalFs } from './mounts';
import type { HolderScan } from './proc';
import { describeProcess, processInfo, type Liveness, type ProcessInfo } from './process';
import { pidBlindSpot } from './reach';

/**
 * How much later than the file's mtime a process must have started to be another process that reused the pid. The
 * mtime and the start come from one kernel clock on a local filesystem, but a file's time can still lag: a clock step
 * between the write and the look (NTP's correction of a drifted clock, a VM's clock set after a resume) or a time put
 * back by `cp -p`, `tar x`, `touch -d`. Those are seconds, rarely a minute; 5 minutes is beyond them, and a pid
 * reused sooner is judged unknown, never live.
 */
const REUSE_BOUND_MS = 5 * 60_000;
/** /proc's start time has 10 ms ticks and the file's mtime its own rounding: a start this close is not "after". */
const SLACK_MS = 1_000;

export interface PidClaim {
  pid: number;
  /** The file that names the pid: when it was last written, and the filesystem it is on. */
  file: { mtimeMs: number; dev: bigint; path: string };
  /** The file names its host and it is this one: its writer ran here even if the filesystem is shared. */
  hostKnown: boolean;
  /** The pid namespace the file says it was written in (Mercurial's host field), when it says one. */
  ns?: number;
}

interface PidJudgement {
  info: ProcessInfo;
  status: Liveness;
  why: string;
}

const secs = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);

/** Why the holder may run where this reader cannot see it, or undefined when nowhere is hidden. */
export function pidElsewhere(c: PidClaim, scan: HolderScan): string | undefined {
  const blind = pidBlindSpot(scan.reach, c.ns);
  if (blind) return blind;
  const fstype = fstypeOf(c.file.dev, c.file.path, scan.mounts);
  if (!c.hostKnown && !isLocalFs(fstype))
    return `the file is on ${fstype ?? 'a filesystem not known to be local'}, which other hosts may share, and it names no host: pid ${c.pid} may run on one of them; a look on the host that wrote it settles it`;
  if (c.ns !== undefined && c.ns === scan.reach.pidNs) return undefined;
  scan.inner ??= readInnerPids();
  const host = scan.inner.get(c.pid);
  if (host === undefined) return undefined;
  const p = processInfo(host, scan.processes);
  return `pid ${c.pid} exists in another pid namespace as host pid ${host} (${p.comm ?? '?'}): the file may have been written there; whether pid ${host} is its writer settles it`;
}

/** A process that runs at the pid: the holder, unless it started after the file was written. */
function judgeRunning(c: PidClaim, info: ProcessInfo, scan: HolderScan): PidJudgement {
  const late = (info.startedMs ?? 0) - c.file.mtimeMs;
  if (info.startedMs === undefined || late <= SLACK_MS)
    return { info, status: 'live', why: `held by live ${describeProcess(info)}` };
  const now = `${describeProcess(info)} started ${secs(late)} after the file was last written`;
  const fstype = fstypeOf(c.file.dev, c.file.path, scan.mounts);
  if (!isLocalFs(fstype))
    return {
      info,
      status: 'unknown',
      why: `${now}, but on ${fstype ?? 'a filesystem not known to be local'} the file's time is stamped by another clock (its server's), so it may be the holder as well as a reused pid; whether that process wrote the file settles it`,
    };
  if (late <= REUSE_BOUND_MS)
    return {
      info,
      status: 'unknown',
      why: `${now}: within ${secs(REUSE_BOUND_MS)} that is as likely a file time set back (a clock step, a copy that kept its time) as a reused pid; whether that process wrote the file settles it`,
    };
  const blind = pidElsewhere(c, scan);
  if (blind) return { info, status: 'unknown', why: `${now}, so not the holder here, but ${blind}` };
  return { info, status: 'dead', why: `${now}: the pid was reused` };
}

/** A pid named in a file, judged on this host. */
export function judgePid(c: PidClaim, scan: HolderScan): PidJudgement {
  const info = processInfo(c.pid, scan.processes);
  if (info.state === 'hidden')
    return { info, status: 'unknown', why: `pid ${c.pid} cannot be read as this user; a look as root settles it` };
  if (info.state === 'alive') return judgeRunning(c, info, scan);
  const what =
    info.state === 'gone'
      ? `pid ${c.pid} is not running`
      : `pid ${c.pid} has exited (a zombie its parent has not reaped)`;
  const blind = pidElsewhere(c, scan);
  if (blind) return { info, status: 'unknown', why: `${what} here, but ${blind}` };
  return { info, status: 'dead', why: what };
}
