// PyPI gcslock / minthem/gcs-lock ("gcs-atomic-lock", gcslock/_apis/model.py): metadata `lock_owner` and
// `expires_sec`; stale at updated + expires_sec on the server's stamp. Refresh and takeover are metadata PATCHes,
// so the owner can change without a new generation: a release always pins the metageneration too.
import { details, numberOf, type LockFormatModule } from './types';

export const gcslock: LockFormatModule = {
  id: 'gcslock',
  label: 'Python gcslock',
  read({ metadata, updatedMs }) {
    if (metadata.lock_owner === undefined || metadata.expires_sec === undefined) return null;
    const reading = {
      identity: metadata.lock_owner,
      details: details([
        ['Owner', metadata.lock_owner],
        ['Expires after (s)', metadata.expires_sec],
      ]),
    };
    const seconds = numberOf(metadata.expires_sec);
    if (seconds === undefined || seconds <= 0)
      return { ...reading, note: `expires_sec ${JSON.stringify(metadata.expires_sec)} is not a duration` };
    return { ...reading, staleAt: updatedMs + seconds * 1000, ttlMs: seconds * 1000 };
  },
  release: 'delete',
  releaseNote: 'Deletes this generation and metageneration; a change of owner (a PATCH) since you looked is refused.',
};
