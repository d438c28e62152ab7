// How a lock in Cloud Storage is shown: the words of GCS (generation, metageneration, object metadata) and of the
// lock's format (a TTL and refreshes for Lockboard-style locks; none for Terraform's and other foreign locks).
import type { StoreTerms } from '../../store';
import type { HealthWords, LockInfo } from '../../types';

const TRAIL =
  'Force-releases and Lockboard holders’ events are audit objects in the bucket; with bucket notifications, ' +
  'changes made by other tools are recorded too. Holders started with `audit: false` record none.';

/**
 * A lock with a TTL (Lockboard-style, refreshed), with an expiry its holder wrote but no refresh (certmagic, Hudi,
 * go-gcslock), or with neither (Terraform's and other foreign locks).
 */
export function gcsTerms(lock: LockInfo): StoreTerms {
  // a lock held by a temporary hold (certmagic) is released in two conditional steps: its rule says both, as its
  // format's release note does (one rule in the dialog, not two)
  if (lock.releaseRule === 'clear-hold-then-delete') return lock.expiresAt !== undefined ? HELD_EXPIRING : HELD_FOREIGN;
  return lock.ttlMs !== undefined ? REFRESHED : lock.expiresAt !== undefined ? EXPIRING : FOREIGN;
}

const HOLD_RULE =
  'Cloud Storage rule: a PATCH clearing the temporary hold, then one DELETE, each with ifGenerationMatch and ifMetagenerationMatch on the version you see here. GCS refuses either (412) if the object was replaced or updated since, so a successor’s lock is never touched.';

type Kind = 'refreshed' | 'expiring' | 'foreign';

function termsOf(kind: Kind): StoreTerms {
  const refreshes = kind === 'refreshed';
  return Object.freeze({
    storeLabel: 'Cloud Storage',
    versionName: 'generation / metageneration',
    since: 'Held since',
    updated: refreshes ? 'Last refresh' : 'Last write',
    ...(refreshes ? { ttl: 'TTL / refresh interval' } : {}),
    liveness: refreshes
      ? 'The holder refreshes its object before the TTL runs out; each refresh bumps the metageneration.'
      : kind === 'expiring'
        ? 'The object says until when it is held; after that the next acquirer may take it over.'
        : 'This format never expires by itself: only its owner or an operator removes it.',
    effect: refreshes
      ? 'Clearing deletes the lock object; the holder learns at its next refresh (404: its object is gone) and aborts its work.'
      : 'Clearing deletes the lock object; its holder, if still running, is not told and may go on as if it held it.',
    rule: 'Cloud Storage rule: one DELETE with ifGenerationMatch and ifMetagenerationMatch on the version you see here. GCS refuses it (412) if the object was replaced or refreshed since, so a successor’s lock is never deleted.',
    trail: TRAIL,
    rawMetadata: true,
    health: refreshes ? REFRESHED_WORDS : FOREIGN_WORDS,
  });
}

const FREE = {
  meaning: 'A released marker: the library keeps the object after release. Nobody holds the lock.',
  advice: 'Nobody holds it: this is a released marker. Deleting it is harmless but rarely needed.',
};

/** Cloud Storage's truth table for a refreshed lock: each refresh is a metadata PATCH (a new metageneration). */
const REFRESHED_WORDS: HealthWords = {
  meaning: {
    healthy: 'The holder is refreshing on schedule.',
    overdue: 'A refresh is late (1.5 intervals without one). The holder may be slow, paused or crashed.',
    expired: 'Not refreshed within its TTL. Any acquirer may take it over; safe to clear.',
    'long-held': 'Alive and refreshing, but held longer than the configured limit. Check the job is not stuck.',
    free: FREE.meaning,
  },
  changes: {
    healthy: 'Every refresh pushes these back.',
    'long-held': 'Every refresh pushes these back; it stays long-held while this holder keeps it.',
    overdue: 'A refresh makes it healthy again.',
  },
  advice: {
    expired: 'Yes: the holder stopped refreshing and the lock is stale.',
    'long-held': 'The holder is alive and refreshing. Clear only if you know its job is stuck; it will be aborted.',
    healthy: 'The holder is alive and refreshing. Clearing aborts its work at its next refresh.',
    free: FREE.advice,
  },
};

/** Terraform's, Pulumi's and other foreign objects: never refreshed, so never called alive. */
const FOREIGN_WORDS: HealthWords = {
  meaning: {
    healthy: 'Held: the expiry its holder wrote has not passed. This format is not refreshed.',
    unknown:
      'Liveness cannot be judged: a format without a TTL (Terraform, Pulumi, plain object) or an unreadable expiry. It never expires by itself; only an operator can clear it.',
    'long-held':
      'Held longer than the configured limit. This format is never refreshed, so whether its holder still runs cannot be judged.',
    free: FREE.meaning,
  },
  advice: {
    unknown: 'Its liveness cannot be judged: check with its owner (Terraform: the user in "Who") before clearing.',
    'long-held': 'Its liveness cannot be judged: clear only if its owner confirms its run is gone.',
    free: FREE.advice,
  },
};

const REFRESHED = termsOf('refreshed');
const EXPIRING = termsOf('expiring');
const FOREIGN = termsOf('foreign');
const HELD_EXPIRING: StoreTerms = Object.freeze({ ...EXPIRING, rule: HOLD_RULE });
const HELD_FOREIGN: StoreTerms = Object.freeze({ ...FOREIGN, rule: HOLD_RULE });
