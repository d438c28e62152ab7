// A lock name in an object store (GCS, S3) is an object name, not a path: "a/../b" and "./x" name objects no tool
// writes as locks, and a user who types them means a path. They are refused before anything is read or recorded, as
// the lock-file store refuses them (a release of "../x" must not leave an audit record for a lock that never was).
import { LockOptionsError } from '../errors';

export function assertObjectLockName(source: string, name: string): void {
  if (name.split('/').some((s) => s === '..' || s === '.'))
    throw new LockOptionsError(
      `${JSON.stringify(name)} is not a lock name in ${source}: object names with "." or ".." segments are never locks; give the name as listed (e.g. locks/deploy-prod).`,
    );
}
