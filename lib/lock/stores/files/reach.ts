// How far this reader's /proc reaches (docs/verdict.md "The reach of evidence"): a pid missing from it proves its
// process gone only where every process that could have written the file is listed. Another pid namespace (a container,
// a second container of one Pod on a shared volume, `unshare -p`) is not listed from inside one; a /proc mounted
// hidepid leaves other users' processes out (absent, not EACCES). docs/verdict.md has the recipes.
import fs from 'node:fs';
import { hidepidOf, mountKey, type Mounts } from './mounts';

/** The initial pid namespace's inode (PROC_PID_INIT_INO in the kernel's include/linux/proc_ns.h, fixed since 3.8). */
const INITIAL_PID_NS = 0xeffffffc;
const CAP_SYS_PTRACE = 19n;

export interface Reach {
  /** False where there is no /proc (not Linux): no process can be seen at all. */
  procfs: boolean;
  /** The inode of this reader's pid namespace (/proc/self/ns/pid). */
  pidNs?: number;
  /** /proc lists this reader's own pid namespace (its NSpid has one entry): pids of that namespace are looked up. */
  listsOwn: boolean;
  /** /proc lists the initial pid namespace: every process on this host is in it (with its host pid). */
  listsAll: boolean;
  /** The /proc mount's hidepid value when it hides other users' processes. */
  hidepid?: string;
  /** This reader may see processes hidepid hides (CAP_SYS_PTRACE in the initial user namespace). */
  seesHidden: boolean;
  /** This boot's id (/proc/sys/kernel/random/boot_id): pids and start times mean nothing across boots. */
  bootId?: string;
}

const read = (p: string): string | undefined => {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
};
const inode = (p: string): number | undefined => {
  try {
    return fs.statSync(p).ino;
  } catch {
    return undefined;
  }
};

/** What never changes for this process: its pid namespace, the /proc it was started with, this boot. */
let own: Omit<Reach, 'hidepid'> | undefined;

function readOwn(): Omit<Reach, 'hidepid'> {
  const status = read('/proc/self/status');
  if (status === undefined) return { procfs: false, listsOwn: false, listsAll: false, seesHidden: false };
  const pidNs = inode('/proc/self/ns/pid');
  const nspid = /^NSpid:\s*(.*)$/m.exec(status)?.[1]?.trim().split(/\s+/) ?? [];
  const listsOwn = nspid.length === 1;
  // pid 1 of this /proc is in the namespace it lists; root may be refused its link (an LSM), so also: this reader
  // is in the initial namespace and its /proc lists its own namespace
  const listsAll = inode('/proc/1/ns/pid') === INITIAL_PID_NS || (listsOwn && pidNs === INITIAL_PID_NS);
  const caps = BigInt(`0x${/^CapEff:\s*([0-9a-f]+)/m.exec(status)?.[1] ?? '0'}`);
  const initialUsers = /^\s*0\s+0\s+4294967295\s*$/.test(read('/proc/self/uid_map') ?? '');
  const seesHidden = initialUsers && ((caps >> CAP_SYS_PTRACE) & 1n) === 1n;
  const bootId = read('/proc/sys/kernel/random/boot_id')?.trim() || undefined;
  return { procfs: true, pidNs, listsOwn, listsAll, seesHidden, bootId };
}

/** The reach now: this process's own part once, the /proc mount's options from this pass's mountinfo. */
export function readReach(mounts: Mounts): Reach {
  own ??= readOwn();
  if (!own.procfs) return own;
  let proc: fs.Stats | undefined;
  try {
    proc = fs.statSync('/proc');
  } catch {
    /* own says there is one */
  }
  const m = proc ? mounts.byDev.get(mountKey(BigInt(proc.dev))) : undefined;
  const hidepid = m?.fstype === 'proc' ? hidepidOf(m) : undefined;
  return { ...own, ...(hidepid ? { hidepid } : {}) };
}

/**
 * Why a pid missing from this /proc may still run, or undefined when its absence is proof. `writerNs`: the pid
 * namespace the file says it was written in (Lockboard's own lock, Mercurial), else any namespace on this host.
 */
export function pidBlindSpot(reach: Reach, writerNs?: number): string | undefined {
  if (!reach.procfs)
    return 'this platform has no /proc, so no process can be looked up; TTL or a look on Linux settles it';
  const sameNs = writerNs !== undefined && writerNs === reach.pidNs && reach.listsOwn;
  if (!reach.listsAll && !sameNs)
    return `other pid namespaces on this host are not visible from here (this reader is in pid namespace ${reach.pidNs ?? '?'}, e.g. a container): its holder may run in one of them; a look from the host's initial pid namespace settles it`;
  if (reach.hidepid && !reach.seesHidden)
    return `/proc is mounted hidepid=${reach.hidepid}, which leaves other users' processes out of it: a look as root (with CAP_SYS_PTRACE) settles it`;
  return undefined;
}
