// Lockboard's own lock in a directory (facts-files §8: 0 overlaps in 4 000 contended acquisitions with crashes and
// injected delays): mkdir `<job>.lockd`, link a unique generation file into it, and hold only if it is then alone
// there; an expired generation is removed by its unique name only, and the directory only when empty (rmdir).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GEN_SUFFIX, LOCKD_SUFFIX, parseGeneration, type Generation } from './gendir-body';
import { acquirerReach, ownHolder, ownIdentity } from './own-holder';
import { readRegularAsync } from './safe-fs';

const MAX_GENERATION = 64 << 10;

let seq = 0;
const wallStart = BigInt(Date.now()) * 1_000_000n;
const hrStart = process.hrtime.bigint();
/** Wall time in ns with the monotonic clock's resolution (the fencing token). */
const wallNs = () => wallStart + (process.hrtime.bigint() - hrStart);

const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';
const ignore = (codes: string[], fn: () => void) => {
  try {
    fn();
  } catch (err) {
    if (!codes.includes(code(err))) throw err;
  }
};

interface GenerationOptions {
  dir: string;
  job: string;
  owner: string;
  purpose?: string;
  ttlMs: number;
}

const lockDirOf = (dir: string, job: string) => path.join(dir, `${job}${LOCKD_SUFFIX}`);

export function newGeneration(o: GenerationOptions): Generation {
  const gen = `${os.hostname()}-${process.pid}-${++seq}-${randomBytes(6).toString('hex')}`;
  return {
    v: 1,
    tool: 'lockboard',
    job: o.job,
    owner: o.owner,
    ...(o.purpose ? { purpose: o.purpose } : {}),
    host: os.hostname(),
    pid: process.pid,
    ...ownIdentity(),
    ttlMs: o.ttlMs,
    gen,
    token: String(wallNs()),
    created: new Date().toISOString(),
  };
}

/** Writes the body beside, then links it in: it appears complete, and only if the name is free. */
function linkCreate(dir: string, target: string, g: Generation): boolean {
  const tmp = path.join(dir, `.${g.gen}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(g), { flag: 'wx' });
  try {
    fs.linkSync(tmp, target);
    return true;
  } catch (err) {
    if (code(err) === 'ENOENT' || code(err) === 'EEXIST') return false;
    throw err;
  } finally {
    ignore(['ENOENT'], () => fs.unlinkSync(tmp));
  }
}

/**
 * Whether a generation file found in someone else's lock directory is past its TTL, or its holder is proven gone
 * (own-holder.ts: same host, pid namespace and boot, and its pid missing or started anew). Read off the event loop
 * (#51): a read that never returns holds this attempt only, never `run`'s deadline.
 */
async function expired(file: string, nowMs: number): Promise<fs.BigIntStats | null> {
  let st: fs.BigIntStats;
  let g: Generation | null;
  try {
    // a FIFO, device or link planted in the directory is never opened (it would block): read as live
    const r = await readRegularAsync(file, MAX_GENERATION);
    if (!('body' in r)) return null;
    st = r.stat;
    g = parseGeneration(r.body);
  } catch {
    return null; // gone meanwhile, or unreadable: treated as live
  }
  if (!g) return null;
  if (Number(st.mtimeMs) + g.ttlMs < nowMs) return st;
  return ownHolder(g, os.hostname(), acquirerReach(nowMs)).gone ? st : null;
}

/** Removes a job's lock directory once empty, by its path: rmdir never follows a link (a swapped-in one: ENOTDIR). */
const removeIfEmpty = (L: string) => ignore(['ENOENT', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR'], () => fs.rmdirSync(L));

/**
 * Runs `claim` on the lock directory this attempt just created, named through its open fd (`/proc/self/fd/N`): a holder
 * who swaps it for a link between the mkdir and the link (#51) never makes this write outside. False when it was
 * replaced (the attempt is lost, nothing written).
 */
function inCreatedDir(L: string, claim: (at: string) => boolean): boolean {
  let fd: number;
  try {
    fd = fs.openSync(L, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  } catch {
    return false; // replaced by a link or a file, or removed: not ours any more
  }
  try {
    const via = `/proc/self/fd/${fd}`;
    return claim(fs.existsSync(via) ? via : L);
  } finally {
    fs.closeSync(fd);
  }
}

/** Links this attempt's generation into its fresh lock directory; true when it is then alone there (held). */
function claimCreated(dir: string, at: string, L: string, g: Generation): boolean {
  const name = `${g.gen}${GEN_SUFFIX}`;
  if (!linkCreate(dir, path.join(at, name), g)) return false;
  const entries = fs.readdirSync(at);
  if (entries.length === 1 && entries[0] === name) return true;
  ignore(['ENOENT'], () => fs.unlinkSync(path.join(at, name)));
  removeIfEmpty(L);
  return false;
}

/** One attempt: the generation's path when held, else null (someone holds it, or a race was lost: retry later). */
export async function tryAcquireGeneration(dir: string, g: Generation): Promise<string | null> {
  const L = lockDirOf(dir, g.job);
  const mine = path.join(L, `${g.gen}${GEN_SUFFIX}`);
  let created = false;
  try {
    fs.mkdirSync(L);
    created = true;
  } catch (err) {
    if (code(err) !== 'EEXIST') throw err;
  }
  if (created) return inCreatedDir(L, (at) => claimCreated(dir, at, L, g)) ? mine : null;
  const entries = await othersEntries(L);
  if (!entries) return null;
  let live = false;
  for (const n of entries) if (!(await removeIfExpired(path.join(L, n)))) live = true;
  if (!live) removeIfEmpty(L);
  return null;
}

/** The entries of someone else's lock directory; null (held) when it is gone or is no directory (a link is never followed). */
async function othersEntries(L: string): Promise<string[] | null> {
  try {
    if (!(await fs.promises.lstat(L)).isDirectory()) return null;
    return await fs.promises.readdir(L);
  } catch (err) {
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return null;
    throw err;
  }
}

/** Removes a generation judged expired, by its unique name, only if it is still that generation: true when gone. */
async function removeIfExpired(file: string): Promise<boolean> {
  const st = await expired(file, Date.now());
  if (!st) return false;
  // a late refresh keeps it
  const again = (() => {
    try {
      return fs.lstatSync(file, { bigint: true });
    } catch {
      return null;
    }
  })();
  if (again && again.ino === st.ino && again.mtimeNs === st.mtimeNs && again.birthtimeNs === st.birthtimeNs)
    ignore(['ENOENT'], () => fs.unlinkSync(file));
  else if (again) return false;
  return true;
}

/** Refresh by the path (never the fd: an fd refresh succeeds on a removed file): false when the lock was taken. */
export function refreshGeneration(file: string): boolean {
  const now = new Date();
  try {
    fs.utimesSync(file, now, now);
    return true;
  } catch (err) {
    if (code(err) === 'ENOENT') return false;
    throw err;
  }
}

/** Removes our generation, then the directory if empty: false when it was already gone (taken over or released). */
export function releaseGeneration(file: string): boolean {
  let ours = true;
  ignore(['ENOENT'], () => {
    ours = false;
    fs.unlinkSync(file);
    ours = true;
  });
  removeIfEmpty(path.dirname(file));
  return ours;
}
