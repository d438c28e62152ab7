// sethvargo/go-gcslock: metadata `nbf` (unix seconds): held while nbf is in the future; an object whose nbf has
// passed is a released marker (the library never deletes its lock object). No owner is stored.
import { details, numberOf, type LockFormatModule } from './types';

export const goGcslock: LockFormatModule = {
  id: 'go-gcslock',
  label: 'Go go-gcslock',
  read({ metadata }) {
    if (metadata.nbf === undefined) return null;
    const seconds = numberOf(metadata.nbf);
    const reading = { details: details([['Not before (holder clock)', metadata.nbf]]) };
    if (seconds === undefined) return { ...reading, note: `nbf ${JSON.stringify(metadata.nbf)} is not a time` };
    return { ...reading, freeAt: seconds * 1000 };
  },
  noHeartbeat: (r) =>
    `go-gcslock writes no heartbeat and no owner: the lock holds until its nbf (${r.freeAt !== undefined ? new Date(r.freeAt).toISOString() : 'unreadable'}, the holder’s clock) by its own rule; only its holder can say sooner`,
  release: 'delete',
  releaseNote: 'Deletes the lock object; go-gcslock treats a missing object as free.',
};
