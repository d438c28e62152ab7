// Removing a lock file only if it is still exactly the one the operator saw (facts-files §7.3). POSIX has no
// conditional unlink, so: check, rename it to a private side name (only we know it, so nothing can change what is
// there), verify the side file, then remove it, or on a mismatch link it back. Sync calls: the window in which the
// name is empty is ~10 µs with them and ~10× longer with fs/promises.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { entryAt, identityOf, sameFile, versionOf } from './entry';

export type ProtocolResult =
  { outcome: 'released' | 'gone' | 'refreshed' } | { outcome: 'changed'; detail?: string; side?: string };

const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';

export const SIDE_MARK = '.lockboard-release-';

export function removeIfSame(p: string, name: string, version: string): ProtocolResult {
  const cur = entryAt(p, name);
  if (!cur) return { outcome: 'gone' };
  const seen = identityOf(cur);
  if (versionOf(seen) !== version) {
    const [dev, ino, birth] = version.split('.');
    const same = sameFile(seen, { ...seen, dev: BigInt(dev!), ino: BigInt(ino!), birthNs: BigInt(birth!) });
    return { outcome: same ? 'refreshed' : 'changed' };
  }
  const side = path.join(
    path.dirname(p),
    `.${path.basename(p)}${SIDE_MARK}${process.pid}-${randomBytes(8).toString('hex')}`,
  );
  try {
    fs.renameSync(p, side);
  } catch (err) {
    if (code(err) === 'ENOENT') return { outcome: 'gone' };
    throw err;
  }
  const moved = entryAt(side, name);
  if (moved && versionOf(identityOf(moved)) === version) {
    if (moved.kind === 'dir') fs.rmdirSync(side);
    else fs.unlinkSync(side);
    return { outcome: 'released' };
  }
  // a successor took the name between the check and the rename: put it back
  if (!moved || moved.kind === 'dir')
    return {
      outcome: 'changed',
      side,
      detail: `a successor's lock appeared at the same moment; a directory cannot be put back safely, so it was left at ${side}: move it back if its holder still runs`,
    };
  try {
    fs.linkSync(side, p);
    fs.unlinkSync(side);
    return {
      outcome: 'changed',
      detail: 'a successor took the lock at the same moment; its file was put back untouched',
    };
  } catch (err) {
    if (code(err) !== 'EEXIST') throw err;
    return {
      outcome: 'changed',
      side,
      detail: `CONFLICT: a successor took the lock at the same moment, and while its file was being put back a third process created the lock; both may be running now. The successor's file is kept at ${side} as evidence`,
    };
  }
}
