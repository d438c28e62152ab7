// One directory entry as the formats read it: lstat (bigint: nanosecond times, birth time), the body of a small file,
// a symlink's target, a directory's entries; and its identity, which a release is conditioned on (facts-files §7.2:
// ext4 reuses a freed inode number at once, so device + inode alone never name "the file the operator saw").
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readRegular, readRegularAsync } from './safe-fs';

export interface Entry {
  /** Relative to the source directory, '/'-separated. */
  name: string;
  path: string;
  stat: fs.BigIntStats;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  /** A file's body (read when it may be a lock), a symlink's target, a directory's sorted entry names. */
  body: Buffer;
  /** False when the file was too large to read: it is then no lock. */
  read: boolean;
}

const MAX_BODY = 1 << 20;
const kindOf = (s: fs.BigIntStats): Entry['kind'] =>
  s.isFile() ? 'file' : s.isDirectory() ? 'dir' : s.isSymbolicLink() ? 'symlink' : 'other';

/** Whether a file's body is worth reading: the names lock tools use, or a small file. */
const worthReading = (name: string, size: bigint) =>
  size === 0n || (size <= BigInt(MAX_BODY) && (size <= 4096n || /\.(lock|pid|info)$/.test(name)));

/** The entry `name` under `dir`, or null when it is not there (ENOENT, ENOTDIR). */
export function readEntry(dir: string, name: string): Entry | null {
  return entryAt(path.join(dir, ...name.split('/')), name);
}

/** The entry at `p`, read by the rules of `name` (a side name keeps the rules of the name it was renamed from). */
export function entryAt(p: string, name: string): Entry | null {
  let stat: fs.BigIntStats;
  try {
    stat = fs.lstatSync(p, { bigint: true });
  } catch (err) {
    if (['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return null;
    throw err;
  }
  return withBody({ name, path: p, stat, kind: kindOf(stat), body: Buffer.alloc(0), read: true });
}

function withBody(e: Entry): Entry | null {
  try {
    if (e.kind === 'symlink') return { ...e, body: Buffer.from(fs.readlinkSync(e.path)) };
    if (e.kind === 'dir') return { ...e, body: Buffer.from(fs.readdirSync(e.path).sort().join('\n')) };
    if (!needsRead(e)) return needsRead(e) === null ? e : { ...e, read: false };
    // a holder's file: regular only (never a FIFO or device swapped in since the lstat), bounded, never blocking
    const r = readRegular(e.path, MAX_BODY, e.stat);
    return 'body' in r ? { ...e, body: r.body } : { ...e, read: false };
  } catch (err) {
    return unreadable(e, err);
  }
}

/**
 * withBody off the event loop for a listing (#51): a file's body is read by libuv requests (safe-fs.ts
 * readRegularAsync), so a read that never returns holds that entry only; links and directories as withBody reads them.
 */
export async function withBodyAsync(e: Entry): Promise<Entry | null> {
  if (e.kind !== 'file' || !needsRead(e)) return withBody(e);
  try {
    const r = await readRegularAsync(e.path, MAX_BODY, e.stat);
    return 'body' in r ? { ...e, body: r.body } : { ...e, read: false };
  } catch (err) {
    return unreadable(e, err);
  }
}

/** A regular file with a body worth reading: true; empty or not a file: null; too large to read: false. */
function needsRead(e: Entry): boolean | null {
  if (e.kind !== 'file' || e.stat.size === 0n) return null;
  return worthReading(e.name, e.stat.size);
}

/** Gone meanwhile: null; not ours to read: unread; anything else is thrown (one entry's reason in a listing). */
function unreadable(e: Entry, err: unknown): Entry | null {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (['ENOENT', 'ENOTDIR'].includes(code)) return null;
  if (code === 'EACCES') return { ...e, read: false };
  throw err;
}

export interface Identity {
  dev: bigint;
  ino: bigint;
  birthNs: bigint;
  mtimeNs: bigint;
  size: bigint;
  kind: Entry['kind'];
  sha: string;
}

const EMPTY_SHA = createHash('sha256').digest('hex').slice(0, 16);

export function identityOf(e: Pick<Entry, 'stat' | 'kind' | 'body'>): Identity {
  const s = e.stat;
  const sha = e.body.length ? createHash('sha256').update(e.body).digest('hex').slice(0, 16) : EMPTY_SHA;
  return { dev: s.dev, ino: s.ino, birthNs: s.birthtimeNs, mtimeNs: s.mtimeNs, size: s.size, kind: e.kind, sha };
}

/** The version an operator copies: `DEV.INO.BIRTH_NS.MTIME_NS.SIZE.SHA256-16`. */
export const versionOf = (i: Identity): string => `${i.dev}.${i.ino}.${i.birthNs}.${i.mtimeNs}.${i.size}.${i.sha}`;

/** The same file, written since (a refresh: new mtime, same inode and birth). */
export const sameFile = (a: Identity, b: Identity): boolean =>
  a.dev === b.dev && a.ino === b.ino && a.birthNs === b.birthNs;
