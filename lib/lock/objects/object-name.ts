// A lock name in an object store (GCS, S3) is an object name, not a path: "locks/a/../b" is a name an object may
// really have (it is listed and released as written), but a user who types "../x" for a name no object has means a
// path. Such a name is refused before anything is recorded, as the lock-file store refuses it: a release of "../x"
// must not leave an audit record for a lock that never was, and `status` must not call it "free".
import { LockOptionsError } from '../errors';

export const hasDotSegments = (name: string): boolean => name.split('/').some((s) => s === '..' || s === '.');

/** Throws for a name with "." or ".." segments: call it once the store found no object of that name. */
export function refuseAbsentPathName(source: string, name: string): void {
  if (hasDotSegments(name))
    throw new LockOptionsError(
      `${JSON.stringify(name)} names no object in ${source}: "." and ".." are taken as part of an object name, never as a path; give the name as listed (e.g. locks/deploy-prod).`,
    );
}
