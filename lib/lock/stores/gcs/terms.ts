// How a lock in Cloud Storage is shown: the words of GCS (generation, metageneration, object metadata) and of the
// lock's format (a TTL and refreshes for Lockboard-style locks; none for Terraform's and other foreign locks).
import type { StoreTerms } from '../../store';
import type { LockInfo } from '../../types';

const TRAIL =
  'Force-releases and Lockboard holders’ events are audit objects in the bucket; with bucket notifications, ' +
  'changes made by other tools are recorded too. Holders started with `audit: false` record none.';

/** A lock with a TTL (Lockboard-style, refreshed) or without one (Terraform's and other foreign locks). */
export function gcsTerms(lock: LockInfo): StoreTerms {
  return lock.ttlMs !== undefined ? REFRESHED : FOREIGN;
}

const REFRESHED = termsOf(true);
const FOREIGN = termsOf(false);

function termsOf(refreshes: boolean): StoreTerms {
  return Object.freeze({
    storeLabel: 'Cloud Storage',
    versionName: 'generation / metageneration',
    since: 'Held since',
    updated: refreshes ? 'Last refresh' : 'Last write',
    ...(refreshes ? { ttl: 'TTL / refresh interval' } : {}),
    liveness: refreshes
      ? 'The holder refreshes its object before the TTL runs out; each refresh bumps the metageneration.'
      : 'This format never expires by itself: only its owner or an operator removes it.',
    effect: refreshes
      ? 'Clearing deletes the lock object; the holder learns at its next refresh (412) and aborts its work.'
      : 'Clearing deletes the lock object; its holder, if still running, is not told and may go on as if it held it.',
    rule: 'Cloud Storage rule: one DELETE with ifGenerationMatch and ifMetagenerationMatch on the version you see here. GCS refuses it (412) if the object was replaced or refreshed since, so a successor’s lock is never deleted.',
    trail: TRAIL,
    rawMetadata: true,
  });
}
