// The grants in force: LOCKBOARD_ACCESS_FILE re-read when it changes (its size, time and inode checked at most once a
// second, on the request that needs the grants: a token or person removed stops at most a second after the edit is
// saved), plus LOCKBOARD_OPERATORS / LOCKBOARD_VIEWERS as grants over every lock, plus the demo accounts' own grants in
// demo mode without a file. A file that cannot be used stops the console at start. Afterwards a deleted file
// withdraws its grants and tokens at once; a file that cannot be used keeps the last good grants for
// LOCKBOARD_ACCESS_GRACE (5 minutes), said on every page, in /api/health and in a metric, then fails closed.
import 'server-only';
import { readFileSync, statSync } from 'node:fs';
import { env, type ConsoleEnv } from '../env';
import { processWide } from '../process/process-wide';
import { AccessFileError, listGrants, parseGrants, type Grants } from './grants';
import { DEMO_GRANTS } from './demo-accounts';
import { plural } from '@/lib/text/plural';
import { formatDuration } from '@/lib/text/format';

/** How often the file's size and time are looked at, at most: the longest a removed grant or token still works. */
export const ACCESS_CHECK_MS = 1_000;
/** How long an unusable file's last good grants stay in force, unless LOCKBOARD_ACCESS_GRACE says otherwise. */
export const ACCESS_GRACE_MS = 5 * 60_000;

const NONE: Grants = Object.freeze({ grants: [], tokens: [] });

interface Loaded {
  /** The last good grants (none once the file was deleted). */
  file: Grants;
  stamp: string;
  checkedAt: number;
  /** Why the file cannot be used now (logged once per change), and since when (the clock's ms). */
  refused?: { message: string; since: number; closed?: boolean };
  /** The file is gone: its grants and tokens are withdrawn. */
  missing?: boolean;
}

const state = processWide('accessFile', () => ({ loaded: undefined as Loaded | undefined }));
const clock = processWide('accessClock', () => ({ now: () => Date.now() }));

/** Sets the clock the grace is measured by (tests); none: the real one. */
export function setAccessClock(now?: () => number): void {
  clock.now = now ?? (() => Date.now());
}

function stampOf(path: string): string {
  const st = statSync(path);
  return `${st.size}:${st.mtimeMs}:${st.ino}`;
}

/** Reads and parses the access file; throws AccessFileError naming the file, the line and the fix. */
export function readAccessFile(path: string): { file: Grants; stamp: string } {
  let text: string;
  let stamp: string;
  try {
    stamp = stampOf(path);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new AccessFileError(
      `${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); set LOCKBOARD_ACCESS_FILE to a readable JSON or YAML file.`,
    );
  }
  return { file: parseGrants(text, path), stamp };
}

/** The file's stamp now: 'missing' when it is gone, `unreadable:CODE` when it cannot be looked at. */
function currentStamp(path: string): string {
  try {
    return stampOf(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : `unreadable:${code ?? (err as Error).message}`;
  }
}

/** Looks at the file again: reloaded when changed, withdrawn when deleted, refused (with its time) when unusable. */
function recheck(path: string, loaded: Loaded, now: number, graceMs: number): void {
  loaded.checkedAt = now;
  const stamp = currentStamp(path);
  if (stamp === loaded.stamp) return;
  if (stamp === 'missing') return withdraw(path, loaded);
  if (stamp.startsWith('unreadable:'))
    return refuse(path, loaded, `${path}: cannot be read (${stamp.slice(11)}).`, stamp, now, graceMs);
  try {
    const next = readAccessFile(path);
    state.loaded = { ...next, checkedAt: now };
    console.info(
      `[lockboard] ${path}: reloaded (${plural('grant', next.file.grants.length)}, ${plural('token', next.file.tokens.length)}).`,
    );
  } catch (err) {
    refuse(path, loaded, (err as Error).message, stamp, now, graceMs);
  }
}

function withdraw(path: string, loaded: Loaded): void {
  Object.assign(loaded, { file: NONE, stamp: 'missing', missing: true, refused: undefined });
  console.error(`[lockboard] ${path} was deleted: every grant and token it gave is withdrawn until it is back.`);
}

function refuse(path: string, loaded: Loaded, message: string, stamp: string, now: number, graceMs: number): void {
  loaded.stamp = stamp; // logged once per change
  loaded.missing = false;
  loaded.refused = { message, since: loaded.refused?.since ?? now };
  const until = new Date(loaded.refused.since + graceMs).toISOString();
  console.error(
    `[lockboard] ${message} The last good grants stay in force until ${until} (LOCKBOARD_ACCESS_GRACE, ${formatDuration(graceMs)}); then every grant and token of the file is withdrawn.`,
  );
}

/** The file's grants now: loaded on first use (throws when unusable), then as `recheck` left them. */
function fileGrants(path: string, now: number, graceMs: number): Grants {
  const loaded = state.loaded;
  if (!loaded) {
    const { file, stamp } = readAccessFile(path);
    state.loaded = { file, stamp, checkedAt: now };
    return file;
  }
  if (now - loaded.checkedAt >= ACCESS_CHECK_MS) recheck(path, loaded, now, graceMs);
  const current = state.loaded!;
  if (current.missing) return NONE;
  const refused = current.refused;
  if (!refused || now - refused.since < graceMs) return current.file;
  if (!refused.closed) {
    refused.closed = true;
    console.error(`[lockboard] ${path}: still unusable after the grace; its grants and tokens are withdrawn.`);
  }
  return NONE;
}

const graceOf = (config: ConsoleEnv) => config.LOCKBOARD_ACCESS_GRACE ?? ACCESS_GRACE_MS;

/** Every grant and token in force under `config`. */
export function currentGrants(config: ConsoleEnv = env(), now = clock.now()): Grants {
  const lists = listGrants(config.LOCKBOARD_OPERATORS, config.LOCKBOARD_VIEWERS);
  if (config.LOCKBOARD_ACCESS_FILE) {
    const file = fileGrants(config.LOCKBOARD_ACCESS_FILE, now, graceOf(config));
    return { grants: [...file.grants, ...lists], tokens: file.tokens };
  }
  return { grants: [...lists, ...(config.LOCKBOARD_DEMO ? DEMO_GRANTS : [])], tokens: [] };
}

/** How the access file stands: in force, deleted, unusable within its grace (`until`), or unusable and withdrawn. */
export type AccessFileState =
  | { state: 'ok' }
  | { state: 'deleted'; file: string }
  | { state: 'grace' | 'closed'; file: string; problem: string; since: string; until: string };

/** The access file's state now (looked at again when due); ok without a file. */
export function accessFileState(config: ConsoleEnv = env(), now = clock.now()): AccessFileState {
  const file = config.LOCKBOARD_ACCESS_FILE;
  if (!file) return { state: 'ok' };
  currentGrants(config, now);
  const loaded = state.loaded;
  if (loaded?.missing) return { state: 'deleted', file };
  const refused = loaded?.refused;
  if (!refused) return { state: 'ok' };
  const until = refused.since + graceOf(config);
  const at = (ms: number) => new Date(ms).toISOString();
  const s = now < until ? 'grace' : 'closed';
  return { state: s, file, problem: refused.message, since: at(refused.since), until: at(until) };
}

/** Why the last reload was refused (the file changed to something unusable), or undefined. */
export function refusedReload(): string | undefined {
  return state.loaded?.refused?.message;
}

/** Forgets the loaded file (tests). */
export function resetAccessFile(): void {
  state.loaded = undefined;
}
