// S3's words and truth table: a Lockboard lock is an object its holder rewrites (a new ETag) before its TTL runs out
// and replaces with a released marker; a Terraform .tflock or another foreign object is never rewritten, so it is
// never called alive.
import type { StoreTerms } from '../../store';
import type { HealthWords } from '../../types';

export const s3Terms = (lockboard: boolean): StoreTerms => (lockboard ? LOCKBOARD : FOREIGN);

const LOCKBOARD_WORDS: HealthWords = {
  meaning: {
    healthy: 'The holder rewrites its object on schedule (each write a new ETag).',
    overdue: 'A rewrite is late (1.5 intervals without one). The holder may be slow, paused or crashed.',
    expired: 'Not rewritten within its TTL. Any acquirer may take it over; safe to clear.',
    'long-held': 'The holder is rewriting its object, but has held it longer than the configured limit.',
    free: 'A released marker: Lockboard keeps the object (and its fencing counter) after release. Nobody holds the lock.',
  },
  changes: {
    healthy: 'Every rewrite pushes these back.',
    'long-held': 'Every rewrite pushes these back; it stays long-held while this holder keeps it.',
    overdue: 'A rewrite makes it healthy again.',
    free: 'Nobody holds it; the next holder overwrites this marker and takes the next fencing token.',
  },
  advice: {
    expired: 'Yes: the holder stopped rewriting its object and the lock is stale.',
    healthy: 'The holder is alive and rewriting it. Clearing aborts its work at its next rewrite (412).',
    'long-held': 'The holder is alive. Clear only if you know its job is stuck; it is aborted at its next rewrite.',
    free: 'Nobody holds it: the released marker keeps the fencing counter, so clearing it is rarely needed.',
  },
};

const FOREIGN_WORDS: HealthWords = {
  meaning: {
    unknown:
      'Liveness cannot be judged: this object (a Terraform .tflock, a plain object) records no expiry. It never expires by itself; only its owner or an operator can clear it.',
    'long-held':
      'Held longer than the configured limit. This object is never rewritten by its holder, so whether the holder still runs cannot be judged.',
  },
  advice: {
    unknown: 'Its liveness cannot be judged: check with its owner (Terraform: the user in "Who") before clearing.',
    'long-held': 'Its liveness cannot be judged: clear only if its owner confirms its run is gone.',
  },
};

function termsOf(lockboard: boolean): StoreTerms {
  return Object.freeze({
    storeLabel: 'S3',
    versionName: 'ETag + last modified',
    since: 'Held since',
    updated: lockboard ? 'Last refresh' : 'Last write',
    ...(lockboard ? { ttl: 'TTL / refresh interval' } : {}),
    liveness: lockboard
      ? 'The holder rewrites its object (a new ETag) before the TTL runs out.'
      : 'This format never expires by itself: only its owner or an operator removes it.',
    effect: lockboard
      ? 'Clearing replaces the lock with a released marker; the holder learns at its next refresh (412) and aborts its work.'
      : 'Clearing deletes the object; its holder, if still running, is not told and may go on as if it held it.',
    rule: 'S3 rule: the lock is removed by one DeleteObject with If-Match on the ETag you see here. S3 refuses it (412) if the object was written since, so a successor’s lock is never deleted. Endpoints without conditional deletes are listed read-only.',
    trail:
      'Force-releases and Lockboard holders’ events are audit objects in the bucket; changes other tools make are not recorded.',
    rawMetadata: !lockboard,
    health: lockboard ? LOCKBOARD_WORDS : FOREIGN_WORDS,
  });
}

const LOCKBOARD = termsOf(true);
const FOREIGN = termsOf(false);
