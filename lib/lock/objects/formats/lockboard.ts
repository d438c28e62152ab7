// This project's protocol (docs/protocol.md): metadata format=lockboard/1 (or ttl_ms); stale at updated + ttl_ms.
import { details, numberOf, type LockFormatModule } from './types';

export const LOCKBOARD_FORMAT = 'lockboard/1';

export const lockboard: LockFormatModule = {
  id: 'lockboard',
  label: 'Lockboard lock',
  read({ metadata, updatedMs }) {
    if (metadata.format !== LOCKBOARD_FORMAT && metadata.ttl_ms === undefined) return null;
    const ttlMs = positive(metadata.ttl_ms);
    const refreshMs = positive(metadata.refresh_ms);
    const reading = {
      identity: metadata.identity,
      details: details([
        ['Identity', metadata.identity],
        ['Host', metadata.host],
        ['PID', metadata.pid],
        ['Purpose', metadata.purpose],
      ]),
      refreshMs,
      ttlMs,
    };
    // Lockboard's S3 lock keeps a released marker (its fencing counter lives in it) instead of deleting the object
    if (metadata.released === 'true') return { ...reading, identity: undefined, released: true };
    if (ttlMs === undefined) return { ...reading, note: `ttl_ms ${JSON.stringify(metadata.ttl_ms)} is not a duration` };
    return { ...reading, staleAt: updatedMs + ttlMs };
  },
  release: 'delete',
  releaseNote: 'Deletes this generation; the holder learns at its next refresh (404) and its signal aborts.',
};

function positive(value: string | undefined): number | undefined {
  const n = numberOf(value);
  return n !== undefined && n > 0 ? Math.round(n) : undefined;
}
