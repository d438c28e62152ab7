// The entries of a lock directory, N levels deep: plain subdirectories are descended into (not locks themselves),
// lock directories (`*.lock`, `*.lockd`) are entries; Lockboard's own trail and release side files are left out.
import fs from 'node:fs';
import path from 'node:path';
import { withBody, type Entry } from './entry';
import { LOCKD_SUFFIX } from './gendir-body';
import { SIDE_MARK } from './release';

const kindOf = (s: fs.BigIntStats): Entry['kind'] =>
  s.isFile() ? 'file' : s.isDirectory() ? 'dir' : s.isSymbolicLink() ? 'symlink' : 'other';

export const isOwnFile = (base: string) =>
  base === '.lockboard' || base.includes(SIDE_MARK) || (base.startsWith('.') && base.endsWith('.tmp'));

export function* walk(root: string, depth: number, skip: string, rel = ''): Generator<Entry | 'skipped'> {
  const dir = rel ? path.join(root, rel) : root;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (rel && ['ENOENT', 'ENOTDIR', 'EACCES'].includes(code)) return;
    if (['ENOENT', 'ENOTDIR', 'EACCES'].includes(code))
      throw Object.assign(new Error(`Cannot list ${dir} (${code}) as uid ${process.getuid?.() ?? '?'}`), {
        code: 'CONFIG',
      });
    throw err;
  }
  for (const base of names.sort()) {
    const name = rel ? `${rel}/${base}` : base;
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
      else yield 'skipped';
      continue;
    }
    const e = withBody({ name, path: p, stat, kind, body: Buffer.alloc(0), read: true });
    if (e) yield e;
  }
}
