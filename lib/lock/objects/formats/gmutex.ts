// ncruces/go-gcp gmutex (gmutex/gmutex.go): metadata `ttl` in whole seconds; stale at updated + ttl; ttl 0 never
// expires. It extends by composing (a new generation); the generation is its lock id. No owner is stored.
import { details, type LockFormatModule } from './types';

export const gmutex: LockFormatModule = {
  id: 'gmutex',
  label: 'Go gmutex',
  read({ metadata, updatedMs }) {
    if (metadata.ttl === undefined || !/^\d+$/.test(metadata.ttl)) return null;
    const seconds = Number(metadata.ttl);
    const reading = { details: details([['TTL (s)', metadata.ttl]]) };
    return seconds === 0 ? reading : { ...reading, staleAt: updatedMs + seconds * 1000, ttlMs: seconds * 1000 };
  },
  noHeartbeat: () =>
    'gmutex with ttl 0 never expires and writes no heartbeat: only the program that took it can settle whether it still holds it',
  release: 'delete',
  releaseNote: 'Deletes this generation; the holder finds out when its next extension fails.',
};
