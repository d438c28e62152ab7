// One lock as a release request names it (both release dialogs): the version pins exactly what was shown, the
// owner travels as its digest (lib/lock/audit/owner-digest.ts), never as its full text. Client-safe.
import { ownerDigest } from '../lock/audit/owner-digest';
import type { LockInfo } from '../lock/types';

export function seenLockBody(l: Pick<LockInfo, 'name' | 'bucket' | 'source' | 'version' | 'identity'>) {
  return {
    name: l.name,
    bucket: l.bucket,
    ...(l.source !== undefined ? { source: l.source } : {}),
    version: l.version,
    ...(l.identity !== undefined ? { owner: ownerDigest(l.identity) } : {}),
  };
}
