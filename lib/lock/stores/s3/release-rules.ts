// What an S3 force-release decides besides its one conditional delete: whether a newer version seen is the same
// holder's refresh or a successor, and the refusal of a source configured as read-only.
import { ownerDigest } from '../../audit/owner-digest';
import type { LockView, ReleaseRequest } from '../../store';
import { tokenOfVersion } from './view';

/** A newer version of the lock seen: the same holder's refresh (same fencing token) is alive, anything else changed. */
export function judge(current: LockView, seen: ReleaseRequest): 'refreshed' | 'changed' {
  if (current.format !== 'lockboard') return 'changed';
  const token = tokenOfVersion(seen.version);
  const sameToken = token !== undefined && token === current.generation;
  const sameOwner =
    current.identity !== undefined &&
    (seen.identity !== undefined
      ? seen.identity === current.identity
      : seen.ownerDigest !== undefined && seen.ownerDigest === ownerDigest(current.identity));
  return sameToken || sameOwner ? 'refreshed' : 'changed';
}

/** A release on a source configured as read-only: refused before anything is sent. */
export class ReadOnlySourceError extends Error {
  readonly code = 'READ_ONLY';
  constructor(source: string, why: string) {
    super(`${source} is read-only: ${why} Nothing was deleted.`);
    this.name = 'ReadOnlySourceError';
  }
}
