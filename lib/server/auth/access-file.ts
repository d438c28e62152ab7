// The grants in force: LOCKBOARD_ACCESS_FILE re-read when it changes (its size and time checked at most once a second,
// on the request that needs the grants), plus LOCKBOARD_OPERATORS / LOCKBOARD_VIEWERS as grants over every lock, plus
// the demo accounts' own grants in demo mode without a file. A file that cannot be used stops the console at start;
// on a reload it is refused, logged, and the last good grants stay in force.
import 'server-only';
import { readFileSync, statSync } from 'node:fs';
import { env, type ConsoleEnv } from '../env';
import { processWide } from '../process/process-wide';
import { AccessFileError, listGrants, parseGrants, type Grants } from './grants';
import { DEMO_GRANTS } from './demo-accounts';
import { plural } from '@/lib/text/plural';

/** How often the file's size and time are looked at, at most. */
const CHECK_MS = 1_000;

interface Loaded {
  file: Grants;
  stamp: string;
  checkedAt: number;
  /** The last reload's refusal, kept until the file changes again (logged once). */
  refused?: string;
}

const state = processWide('accessFile', () => ({ loaded: undefined as Loaded | undefined }));

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

/** The file's grants now: loaded on first use (throws when unusable), re-read when changed (refused: the last good). */
function fileGrants(path: string, now: number): Grants {
  const loaded = state.loaded;
  if (!loaded) {
    const { file, stamp } = readAccessFile(path);
    state.loaded = { file, stamp, checkedAt: now };
    return file;
  }
  if (now - loaded.checkedAt < CHECK_MS) return loaded.file;
  loaded.checkedAt = now;
  let stamp: string;
  try {
    stamp = stampOf(path);
  } catch {
    stamp = 'missing';
  }
  if (stamp === loaded.stamp) return loaded.file;
  try {
    const next = readAccessFile(path);
    state.loaded = { ...next, checkedAt: now };
    console.info(
      `[lockboard] ${path}: reloaded (${plural('grant', next.file.grants.length)}, ${plural('token', next.file.tokens.length)}).`,
    );
  } catch (err) {
    loaded.stamp = stamp; // logged once per change
    loaded.refused = (err as Error).message;
    console.error(`[lockboard] ${(err as Error).message} The last good grants stay in force.`);
  }
  return state.loaded!.file;
}

/** Every grant and token in force under `config`. */
export function currentGrants(config: ConsoleEnv = env(), now = Date.now()): Grants {
  const lists = listGrants(config.LOCKBOARD_OPERATORS, config.LOCKBOARD_VIEWERS);
  if (config.LOCKBOARD_ACCESS_FILE) {
    const file = fileGrants(config.LOCKBOARD_ACCESS_FILE, now);
    return { grants: [...file.grants, ...lists], tokens: file.tokens };
  }
  return { grants: [...lists, ...(config.LOCKBOARD_DEMO ? DEMO_GRANTS : [])], tokens: [] };
}

/** Why the last reload was refused (the file changed to something unusable), or undefined. */
export function refusedReload(): string | undefined {
  return state.loaded?.refused;
}

/** Forgets the loaded file (tests). */
export function resetAccessFile(): void {
  state.loaded = undefined;
}
