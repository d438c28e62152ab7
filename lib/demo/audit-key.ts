// The demo's audit signing key, one per data directory: the demo keeps its trails in the data directory across
// runs, so a key made afresh each run would leave every earlier console release unverifiable (shown as a holder's
// report, not an operator's act). The key is kept beside the data, readable by its owner only.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = 'audit-key';

/** The data directory's key: LOCKBOARD_AUDIT_KEY when set, else the one kept in `dataDir`, made on the first run. */
export function demoAuditKey(dataDir: string, env: Record<string, string | undefined> = process.env): string {
  if (env.LOCKBOARD_AUDIT_KEY) return env.LOCKBOARD_AUDIT_KEY;
  const file = join(dataDir, FILE);
  const kept = readKept(file);
  if (kept) return kept;
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    // another demo on the same directory made it first: its key is the directory's
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readKept(file) ?? key;
    throw err;
  }
}

function readKept(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
