// The grants checked once at start-up: an access file that cannot be used stops the console (AccessFileError, naming
// the file, the line and the fix); no grant at all is a warning: nobody may see anything (fail closed).
import type { ConsoleEnv } from '../env';
import { readAccessFile } from './access-file';
import { listGrants } from './grants';

export function checkGrantsAtStart(config: ConsoleEnv): void {
  const file = config.LOCKBOARD_ACCESS_FILE ? readAccessFile(config.LOCKBOARD_ACCESS_FILE).file : undefined;
  const grants = (file?.grants.length ?? 0) + listGrants(config.LOCKBOARD_OPERATORS, config.LOCKBOARD_VIEWERS).length;
  const tokens = file?.tokens.length ?? 0;
  if (grants + tokens === 0 && !config.LOCKBOARD_DEMO)
    console.warn(
      '[lockboard] No grant is configured: nobody can see or release any lock. Set LOCKBOARD_ACCESS_FILE (see deploy/access.example.yaml) or LOCKBOARD_OPERATORS / LOCKBOARD_VIEWERS.',
    );
}
