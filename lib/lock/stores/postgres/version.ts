// What a version of this store looks like (checked before anything is sent; a malformed one is a usage error).
import type { VersionShape } from '../../store';

export const POSTGRES_VERSION: VersionShape = {
  // advisory: pid.backend_us.database.classid.objid.objsubid; a row: its key fields joined by "|" (any characters)
  test: (v) => /^\d+\.(\d+|hidden)\.\d+\.\d+\.\d+\.\d+$/.test(v) || (/\|/.test(v) && v.length <= 2000),
  describe:
    'a PostgreSQL version is PID.BACKEND_START_US.DATABASE.CLASSID.OBJID.OBJSUBID for an advisory lock, or the row ' +
    'version (fields joined by "|") for a lock table, exactly as `lockboard status --json` shows it (quote it)',
};
