// Removing a lock file only if it is still exactly the one the operator saw (facts-files §7.3). POSIX has no
// conditional unlink, so: check, rename it to a private side name (only we know it, so nothing can change what is
// there), verify the side file, then remove it, or on a mismatch link it back. Sync calls: the window in which the
// name is empty is ~10 µs with them and ~10× longer with fs/promises.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { newGeneration, releaseGeneration, tryAcquireGeneration } from './gendir';
import { entryAt, identityOf, sameFile, versionOf } from './entry';
import { parseVersion } from './version';
import { holdOwnDir } from './safe-fs';

export type ProtocolResult =
  { outcome: 'released' | 'gone' | 'refreshed' } | { outcome: 'changed'; detail?: string; side?: string };

const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';

export const SIDE_MARK = '.lockboard-release-';

/**
 * Pauses in the protocol's two windows, for tests only (test/files/conflict.test.ts makes real processes act in them):
 * `checked` after the file was judged unchanged and before the rename (W1), `displaced` after a mismatch was found on
 * the side file and before it is linked back (W2, the name empty). Unset, they cost one property read each.
 */
export const releaseWindows: { checked?: () => void; displaced?: () => void } = {};

/**
 * The protocol, serialised among Lockboard's releases of the same file by its own lock (a generation directory under
 * `guard`): two operators clearing one stale file at once would otherwise let the later one's rename displace the
 * successor the first one let in (6 overlaps in 400 sections measured without it; test/files/race.test.ts).
 * `guard` is checked once and held open (safe-fs.ts holdOwnDir): the generation is made and removed through its fd,
 * so a holder who swaps a parent for a symlink meanwhile changes nothing outside (#51).
 */
export async function removeIfSame(p: string, name: string, version: string, guard: string): Promise<ProtocolResult> {
  const job = `release-${createHash('sha256').update(p).digest('hex').slice(0, 16)}`;
  const own = holdOwnDir(path.dirname(guard), path.basename(guard), 'release guard');
  try {
    const deadline = Date.now() + 2_000;
    let held: string | null = null;
    const g = () => newGeneration({ dir: own.at, job, owner: 'release', ttlMs: 5_000 });
    while (!(held = await tryAcquireGeneration(own.at, g()))) {
      if (Date.now() > deadline) throw new Error(`another release of ${p} has been in progress for 2 s; try again`);
      await new Promise((r) => setTimeout(r, 1));
    }
    try {
      return removeIfSameNow(p, name, version);
    } finally {
      releaseGeneration(held);
    }
  } finally {
    own.close();
  }
}

function removeIfSameNow(p: string, name: string, version: string): ProtocolResult {
  const cur = entryAt(p, name);
  if (!cur) return { outcome: 'gone' };
  const seen = identityOf(cur);
  if (versionOf(seen) !== version) {
    const asked = parseVersion(version);
    return { outcome: asked && sameFile(seen, { ...seen, ...asked }) ? 'refreshed' : 'changed' };
  }
  const side = path.join(
    path.dirname(p),
    `.${path.basename(p)}${SIDE_MARK}${process.pid}-${randomBytes(8).toString('hex')}`,
  );
  releaseWindows.checked?.();
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
  if (!moved || moved.kind === 'dir') {
    const kept = moved ? keepInSight(side, p) : side;
    return {
      outcome: 'changed',
      side: kept,
      detail: `a successor's lock appeared at the same moment; a directory cannot be put back safely, so it was left at ${kept}: move it back if its holder still runs`,
    };
  }
  releaseWindows.displaced?.();
  try {
    fs.linkSync(side, p);
    fs.unlinkSync(side);
    return {
      outcome: 'changed',
      detail: 'a successor took the lock at the same moment; its file was put back untouched',
    };
  } catch (err) {
    if (code(err) !== 'EEXIST') throw err;
    const kept = keepInSight(side, p);
    return {
      outcome: 'changed',
      side: kept,
      detail: `CONFLICT: a successor took the lock at the same moment, and while its file was being put back a third process created the lock; both may be running now. The successor's file is kept at ${kept} as evidence`,
    };
  }
}

/**
 * A displaced successor's lock that cannot go back: renamed from the hidden side name to one the listing shows
 * (`.<name>.conflict-<pid>-<random>.lock`), so its holder is named beside the lock's new holder. Its holder's open
 * fd follows the rename. Where even that fails, it stays at the side name.
 */
function keepInSight(side: string, p: string): string {
  const kept = path.join(
    path.dirname(p),
    `.${path.basename(p)}.conflict-${process.pid}-${randomBytes(4).toString('hex')}.lock`,
  );
  try {
    fs.renameSync(side, kept);
    return kept;
  } catch {
    return side;
  }
}
