// The entries of a lock directory, N levels deep: plain subdirectories are descended into (not locks themselves),
// lock directories (`*.lock`, `*.lockd`) are entries; Lockboard's own trail and release side files are left out.
// Names are read as bytes: one that is not valid UTF-8 cannot be named by a string path, so it is counted as skipped
// with its reason and its escaped bytes (issue #51: nothing hides), never dropped silently.
import fs from 'node:fs';
import path from 'node:path';
import { withBodyAsync, type Entry } from './entry';
import { LOCKD_SUFFIX } from './gendir-body';
import { SIDE_MARK } from './release';

const kindOf = (s: fs.BigIntStats): Entry['kind'] =>
  s.isFile() ? 'file' : s.isDirectory() ? 'dir' : s.isSymbolicLink() ? 'symlink' : 'other';

export const isOwnFile = (base: string) =>
  base === '.lockboard' || base.includes(SIDE_MARK) || (base.startsWith('.') && base.endsWith('.tmp'));

/** An entry that is not a lock (or cannot be read as one): its name, and why when it is worth saying. */
interface Skipped {
  skipped: string;
  why?: string;
}

export type Walked = Entry | Skipped;

/** A name's bytes shown safely: printable ASCII as it is, every other byte (and the backslash) escaped as \\xNN. */
export function escapeNameBytes(b: Buffer): string {
  let out = '';
  for (const byte of b) out += byte >= 0x20 && byte < 0x7f && byte !== 0x5c ? String.fromCharCode(byte) : hex(byte);
  return out;
}
const hex = (byte: number) => (byte === 0x5c ? '\\\\' : `\\x${byte.toString(16).padStart(2, '0')}`);

/** The name as a string, or null when its bytes are not valid UTF-8 (a string could not name it again). */
export function utf8Name(b: Buffer): string | null {
  const s = b.toString('utf8');
  return Buffer.from(s).equals(b) ? s : null;
}

/** The directory's names as bytes, sorted (one directory's names only are held, never its entries' bodies). */
function namesOf(dir: string, rel: string): Buffer[] | null {
  try {
    return fs.readdirSync(dir, { encoding: 'buffer' }).sort(Buffer.compare);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (rel && ['ENOENT', 'ENOTDIR', 'EACCES'].includes(code)) return null;
    if (['ENOENT', 'ENOTDIR', 'EACCES'].includes(code))
      throw Object.assign(new Error(`Cannot list ${dir} (${code}) as uid ${process.getuid?.() ?? '?'}`), {
        code: 'CONFIG',
      });
    throw err;
  }
}

/** Whether `name` comes after `token` in the walk's order (depth first, each directory's names sorted). */
export function after(name: string, token: string): boolean {
  const a = name.split('/');
  const b = token.split('/');
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = Buffer.compare(Buffer.from(a[i]!), Buffer.from(b[i]!));
    if (c) return c > 0;
  }
  return a.length > b.length;
}

export async function* walk(root: string, depth: number, skip: string, rel = ''): AsyncGenerator<Walked> {
  const dir = rel ? path.join(root, rel) : root;
  const names = namesOf(dir, rel);
  if (!names) return;
  for (const raw of names) {
    const base = utf8Name(raw);
    const relBytes = rel ? `${rel}/` : '';
    if (base === null) {
      if (isOwnFile(raw.toString('latin1'))) continue;
      const shown = `${relBytes}${escapeNameBytes(raw)}`;
      yield { skipped: shown, why: `${shown}: the name is not valid UTF-8 (remove or rename it by its bytes)` };
      continue;
    }
    const name = `${relBytes}${base}`;
    const p = path.join(dir, base);
    if (isOwnFile(base) || p === skip) continue;
    let stat: fs.BigIntStats;
    try {
      stat = fs.lstatSync(p, { bigint: true });
    } catch {
      continue; // removed meanwhile
    }
    const kind = kindOf(stat);
    if (kind === 'dir' && !base.endsWith('.lock') && !base.endsWith(LOCKD_SUFFIX)) {
      if (depth > 0) yield* walk(root, depth - 1, skip, name);
      else yield { skipped: name };
      continue;
    }
    yield* bodyOf({ name, path: p, stat, kind, body: Buffer.alloc(0), read: true });
  }
}

/** One entry with its body, read off the loop: an error reading it costs that entry only (skipped, with the reason). */
async function* bodyOf(e: Entry): AsyncGenerator<Walked> {
  try {
    const read = await withBodyAsync(e);
    if (read) yield read;
  } catch (err) {
    yield { skipped: e.name, why: `${e.name}: ${(err as Error).message}` };
  }
}
