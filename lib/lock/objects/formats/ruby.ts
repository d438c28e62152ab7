// FooBarWidget/distributed-lock-google-cloud-storage-ruby (and its Go port gdlock): metadata `identity` and
// `expires_at` (float seconds, the writer's clock). TTL is inferred as expires_at − updated and the refresh
// interval as TTL/8 (that implementation's default), so a holder that stopped refreshing shows overdue, then expired.
import { details, numberOf, type LockFormatModule } from './types';

export const ruby: LockFormatModule = {
  id: 'ruby',
  label: 'Ruby distributed-lock',
  read({ metadata, updatedMs }) {
    if (metadata.identity === undefined || metadata.expires_at === undefined) return null;
    const reading = {
      identity: metadata.identity,
      details: details([
        ['Identity', metadata.identity],
        ['Expires at (holder clock)', metadata.expires_at],
      ]),
    };
    const seconds = numberOf(metadata.expires_at);
    if (seconds === undefined)
      return { ...reading, note: `expires_at ${JSON.stringify(metadata.expires_at)} is not a time` };
    const staleAt = seconds * 1000;
    const ttlMs = staleAt - updatedMs;
    return ttlMs > 0 ? { ...reading, staleAt, ttlMs, refreshMs: ttlMs / 8 } : { ...reading, staleAt };
  },
  release: 'delete',
  releaseNote: 'Deletes this generation; the holder notices at its next refresh and stops.',
};
