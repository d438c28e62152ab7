// The mounts a lock file's evidence depends on (/proc/self/mountinfo, read once per listing pass): the filesystem a
// file is on (a network one is shared with other hosts and stamps times with its server's clock) and the options of
// the /proc the reader looks through (hidepid hides other users' processes: they are absent, not EACCES).
import fs from 'node:fs';

interface Mount {
  fstype: string;
  /** The superblock's options (the last field): where proc says hidepid. */
  options: string;
  point: string;
}

/** Mounts by `MAJ:MIN` in decimal, as mountinfo's third field writes them (the last mount of a device wins), and all. */
export interface Mounts {
  byDev: Map<string, Mount>;
  all: Mount[];
}

/**
 * Filesystems on which a file's times come from this host's clock and its writer ran on this host. Anything else
 * (nfs, nfs4, cifs, smb3, fuse.*, ceph, 9p, an unknown type) may be shared with other hosts: conservative by default.
 */
const LOCAL = new Set(
  'ext2 ext3 ext4 xfs btrfs bcachefs f2fs jfs reiserfs zfs tmpfs ramfs overlay vfat exfat ntfs3 hfsplus'.split(' '),
);

/** mountinfo escapes blanks in paths as octal (`\040`). */
const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)));

function parseMountinfo(text: string): Mounts {
  const out: Mounts = { byDev: new Map(), all: [] };
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const f = left.split(' ');
    const [fstype, , options] = right.split(' ');
    if (!f[2] || !f[4] || !fstype) continue;
    const m = { fstype, options: options ?? '', point: unescape(f[4]) };
    out.byDev.set(f[2], m);
    out.all.push(m);
  }
  return out;
}

export function readMounts(): Mounts {
  try {
    return parseMountinfo(fs.readFileSync('/proc/self/mountinfo', 'utf8'));
  } catch {
    return { byDev: new Map(), all: [] };
  }
}

/** glibc's major/minor split of st_dev, in mountinfo's decimal `MAJ:MIN`. */
export function mountKey(dev: bigint): string {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return `${major}:${minor}`;
}

/**
 * The filesystem type a file is on: by its device, else (a btrfs subvolume's own device) by the longest mount point
 * its path is under; undefined when neither names it (then it is not known to be local).
 */
export function fstypeOf(dev: bigint, file: string, mounts: Mounts): string | undefined {
  const byDev = mounts.byDev.get(mountKey(dev));
  if (byDev) return byDev.fstype;
  let best: Mount | undefined;
  for (const m of mounts.all) {
    const under = m.point === '/' || file === m.point || file.startsWith(`${m.point}/`);
    if (under && (!best || m.point.length >= best.point.length)) best = m;
  }
  return best?.fstype;
}

export const isLocalFs = (fstype: string | undefined): boolean => fstype !== undefined && LOCAL.has(fstype);

/** The value of a proc mount's hidepid option when it hides anything (`1`, `2`, `noaccess`, `invisible`, `ptraceable`). */
export function hidepidOf(m: Mount | undefined): string | undefined {
  const v = /(?:^|,)hidepid=([^,]+)/.exec(m?.options ?? '')?.[1];
  return v === undefined || v === '0' || v === 'off' ? undefined : v;
}
