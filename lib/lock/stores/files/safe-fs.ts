// A lock directory is hostile ground (issue #51): whoever may create a lock there may plant a symlink, a FIFO, a
// device or a huge file under any name. So every read of a holder-writable path checks the type first (lstat), opens
// without following links and without blocking (O_NOFOLLOW | O_NONBLOCK), checks the open file again (fstat: a
// regular file, the inode lstat saw) and reads a bounded number of bytes. A FIFO, socket or device is never opened.
//
// Lockboard's own files (the trail and the release guard) are written only into directories it owns: a directory
// (not a symlink) owned by the current user and not writable by group or others, opened with O_NOFOLLOW, the file
// created or appended through that directory's fd (/proc/self/fd/N/…), so a holder who renames the directory away
// and plants a symlink in its place meanwhile changes nothing outside it.
import fs from 'node:fs';
import path from 'node:path';

const C = fs.constants;
const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';

/** Lockboard refuses a path of its own that is not what it must be; the CLI exits 3 (a configuration error). */
class UnsafePathError extends Error {
  readonly code = 'CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'UnsafePathError';
  }
}

type RegularRead = { body: Buffer; stat: fs.BigIntStats } | { not: 'regular' | 'large'; stat?: fs.BigIntStats };

const kindWord = (s: fs.Stats | fs.BigIntStats): string =>
  s.isFile()
    ? 'a regular file'
    : s.isDirectory()
      ? 'a directory'
      : s.isSymbolicLink()
        ? 'a symbolic link'
        : s.isFIFO()
          ? 'a FIFO'
          : s.isSocket()
            ? 'a socket'
            : s.isCharacterDevice() || s.isBlockDevice()
              ? 'a device'
              : 'a special file';

/**
 * The body of the regular file at `p`, at most `max` bytes, never blocking: lstat first (anything but a regular file
 * is never opened), then open O_NOFOLLOW | O_NONBLOCK and fstat the fd (it must be the inode lstat saw). ENOENT and
 * other errors of lstat/open are thrown as they are.
 */
export function readRegular(p: string, max: number, seen?: fs.BigIntStats): RegularRead {
  const before = seen ?? fs.lstatSync(p, { bigint: true });
  if (!before.isFile()) return { not: 'regular', stat: before };
  if (before.size > BigInt(max)) return { not: 'large', stat: before };
  let fd: number;
  try {
    fd = fs.openSync(p, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
  } catch (err) {
    if (code(err) === 'ELOOP') return { not: 'regular' }; // swapped for a symlink since the lstat
    throw err;
  }
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    if (!st.isFile() || st.ino !== before.ino || st.dev !== before.dev) return { not: 'regular', stat: st };
    const buf = Buffer.alloc(Math.min(max, Number(st.size)) + 1);
    let n = 0;
    while (n < buf.length) {
      const got = fs.readSync(fd, buf, n, buf.length - n, n);
      if (got === 0) break;
      n += got;
    }
    if (n > max) return { not: 'large', stat: st };
    return { body: buf.subarray(0, n), stat: st };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * readRegular off the event loop: the same checks (lstat first, O_NOFOLLOW | O_NONBLOCK, the fd's inode the one lstat
 * saw, at most `max` bytes), each step a libuv request, so a read that never returns (a hung network file system)
 * leaves the loop free to keep its deadlines.
 */
export async function readRegularAsync(p: string, max: number, seen?: fs.BigIntStats): Promise<RegularRead> {
  const before = seen ?? (await fs.promises.lstat(p, { bigint: true }));
  if (!before.isFile()) return { not: 'regular', stat: before };
  if (before.size > BigInt(max)) return { not: 'large', stat: before };
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(p, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
  } catch (err) {
    if (code(err) === 'ELOOP') return { not: 'regular' };
    throw err;
  }
  try {
    const st = await fh.stat({ bigint: true });
    if (!st.isFile() || st.ino !== before.ino || st.dev !== before.dev) return { not: 'regular', stat: st };
    const buf = Buffer.alloc(Math.min(max, Number(st.size)) + 1);
    let n = 0;
    while (n < buf.length) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    if (n > max) return { not: 'large', stat: st };
    return { body: buf.subarray(0, n), stat: st };
  } finally {
    await fh.close();
  }
}

const uid = () => process.getuid?.() ?? -1;

/** `name` inside the directory open as `fd`: through the fd on Linux (no path is resolved again), else by path. */
const under = (fd: number, dir: string, name: string) =>
  fs.existsSync(`/proc/self/fd/${fd}`) ? `/proc/self/fd/${fd}/${name}` : path.join(dir, name);

/** Why a path of Lockboard's own is refused, or undefined when it is ours: the owner and mode rule. */
function notOurs(what: string, p: string, st: fs.Stats, want: 'file' | 'dir'): string | undefined {
  const isWanted = want === 'dir' ? st.isDirectory() : st.isFile();
  if (!isWanted) return `${p} is ${kindWord(st)}, not ${want === 'dir' ? 'a directory' : 'a regular file'}`;
  if (uid() >= 0 && st.uid !== uid()) return `${p} is owned by uid ${st.uid}, not by uid ${uid()} who runs Lockboard`;
  if (st.mode & 0o022)
    return `${p} is writable by group or others (mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')})`;
  if (want === 'file' && st.nlink > 1) return `${p} has ${st.nlink} hard links (another name points at it)`;
  void what;
  return undefined;
}

function refuse(what: string, why: string, fix: string): never {
  throw new UnsafePathError(`Lockboard's ${what} is refused: ${why}. Nothing was written. ${fix}`);
}

const fixFor = (dir: string) =>
  `Remove it if it is not yours (e.g. rm -r ${JSON.stringify(dir)}, after checking what it is), or choose a directory you own with ?audit=/dir in the source.`;

/**
 * Creates `dir` if missing (its parents as needed, itself 0755 without following a link) and opens it O_NOFOLLOW,
 * refused unless it is a directory owned by the current user and not group/other-writable. Returns the open fd.
 */
function openOwnDir(dir: string, what: string): number {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  return openChecked(dir, dir, what);
}

/**
 * `name` inside the directory of ours open as `parentFd` (at `parentPath`), created 0755 if missing and opened as
 * openOwnDir does, resolved through the parent's fd (no path above it is resolved again): returns the open fd.
 */
function openOwnSubdir(parentFd: number, parentPath: string, name: string, what: string): number {
  return openChecked(under(parentFd, parentPath, name), path.join(parentPath, name), what);
}

const MOVED_FIX = 'Someone else is moving it: retry, and check who writes in this directory.';

/** lstat of a directory just made or found: one that vanished since (someone moved it away) is refused. */
function lstatOrRefuse(at: string, shown: string, what: string): fs.Stats {
  try {
    return fs.lstatSync(at);
  } catch (err) {
    if (code(err) === 'ENOENT') refuse(what, `${shown} was moved away as it was opened`, MOVED_FIX);
    throw err;
  }
}

/**
 * mkdir `at` (shown as `shown`), lstat it, open it O_DIRECTORY | O_NOFOLLOW and check the open fd: the inode lstat
 * saw, a directory owned by the current user, not group/other-writable. Anything else is refused (UnsafePathError).
 */
function openChecked(at: string, shown: string, what: string): number {
  try {
    fs.mkdirSync(at, { mode: 0o755 });
  } catch (err) {
    if (code(err) !== 'EEXIST') throw err;
  }
  const st = lstatOrRefuse(at, shown, what);
  if (st.isSymbolicLink()) refuse(what, `${shown} is a symbolic link to ${safeReadlink(at)}`, fixFor(shown));
  const why = notOurs(what, shown, st, 'dir');
  if (why) refuse(what, why, fixFor(shown));
  let fd: number;
  try {
    fd = fs.openSync(at, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW | C.O_NONBLOCK);
  } catch (err) {
    if (['ELOOP', 'ENOTDIR'].includes(code(err)))
      refuse(what, `${shown} changed into a link as it was opened`, fixFor(shown));
    if (code(err) === 'ENOENT') refuse(what, `${shown} was moved away as it was opened`, MOVED_FIX);
    throw err;
  }
  const opened = fs.fstatSync(fd);
  const again =
    opened.dev !== st.dev || opened.ino !== st.ino
      ? `${shown} was replaced by another directory as it was opened`
      : notOurs(what, shown, opened, 'dir');
  if (again) {
    fs.closeSync(fd);
    refuse(what, again, fixFor(shown));
  }
  return fd;
}

/**
 * A directory of Lockboard's own held open for a while (the release guard): `at` names it through its fd on Linux
 * (`/proc/self/fd/N`, never the path again), so files made under `at` land in the directory that was checked.
 */
interface OwnDir {
  fd: number;
  at: string;
  close(): void;
}

/** Opens `parent/name` as openOwnSubdir does, `parent` first as openOwnDir does, and keeps the child open. */
export function holdOwnDir(parent: string, name: string, what: string): OwnDir {
  const pfd = openOwnDir(parent, what);
  let fd: number;
  try {
    fd = openOwnSubdir(pfd, parent, name, what);
  } finally {
    fs.closeSync(pfd);
  }
  const viaFd = `/proc/self/fd/${fd}`;
  return { fd, at: fs.existsSync(viaFd) ? viaFd : path.join(parent, name), close: () => fs.closeSync(fd) };
}

function safeReadlink(p: string): string {
  try {
    return JSON.stringify(fs.readlinkSync(p));
  } catch {
    return 'somewhere';
  }
}

/** Appends `text` to `dir/name` in one write, creating it 0644: refused unless a regular file of ours. */
export function appendOwnFile(dir: string, name: string, text: string, what: string): void {
  const dfd = openOwnDir(dir, what);
  const file = path.join(dir, name);
  try {
    let fd: number;
    try {
      fd = fs.openSync(under(dfd, dir, name), C.O_WRONLY | C.O_APPEND | C.O_CREAT | C.O_NOFOLLOW | C.O_NONBLOCK, 0o644);
    } catch (err) {
      if (code(err) === 'ELOOP') refuse(what, `${file} is a symbolic link to ${safeReadlink(file)}`, fixFor(file));
      if (code(err) === 'ENXIO') refuse(what, `${file} is a FIFO or socket`, fixFor(file));
      throw err;
    }
    try {
      const why = notOurs(what, file, fs.fstatSync(fd), 'file');
      if (why) refuse(what, why, fixFor(file));
      fs.writeSync(fd, text);
    } finally {
      fs.closeSync(fd);
    }
  } finally {
    fs.closeSync(dfd);
  }
}

/** The body of `dir/name` when it is a regular file not writable by others (ours or root's); null when absent. */
export function readOwnFile(dir: string, name: string, max: number, what: string): Buffer | null {
  const file = path.join(dir, name);
  let r: RegularRead;
  try {
    r = readRegular(file, max);
  } catch (err) {
    if (['ENOENT', 'ENOTDIR'].includes(code(err))) return null;
    throw err;
  }
  if ('body' in r) {
    const st = r.stat;
    if ((st.mode & 0o022n) !== 0n || (st.uid !== BigInt(uid()) && st.uid !== 0n))
      throw new UnsafePathError(
        `Lockboard's ${what} at ${file} is unreadable: it is owned by uid ${st.uid} or writable by others (mode ${(st.mode & 0o7777n).toString(8)}). ${fixFor(file)}`,
      );
    return r.body;
  }
  const found = r.not === 'large' ? `larger than ${max} bytes` : r.stat ? kindWord(r.stat) : 'not a regular file';
  throw new UnsafePathError(
    `Lockboard's ${what} at ${file} is unreadable: it is ${found}, not a regular file. ${fixFor(file)}`,
  );
}
