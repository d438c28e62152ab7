// Redis's words and truth table, per format: a key, its value, its TTL (which Redis enforces by deleting the key);
// what keeps a lock alive differs by library: Lockboard extends its TTL, Redisson's watchdog renews it, Laravel never
// extends it, a SETNX lock's expiry is a time in its value, and a key with no TTL says nothing of its holder.
import type { StoreTerms } from '../../store';
import type { HealthWords } from '../../types';
import type { RedisReading } from './formats';

const RULE =
  'Redis rule: one Lua script compares the key with the value you see here (its hash) and deletes it only on a match, then wakes the format’s waiters as its own unlock does. A holder that re-acquired or a successor has another value, so it is never released.';
const TRAIL =
  'Force-releases and Lockboard’s own Redis holders are recorded in the lockboard:audit stream; other libraries record nothing.';

/** Each distinct set of words is made once and shared (the console's index keeps one copy per set, not per lock). */
const made = new Map<string, StoreTerms>();

/** A Redis lock's words: `hasTtl` is whether the key has a TTL now (PTTL > 0). */
export function redisTerms(
  r: Partial<Pick<RedisReading, 'format' | 'acquiredMs' | 'staleAtMs'>>,
  hasTtl: boolean,
): StoreTerms {
  const key = `${r.format}|${r.acquiredMs !== undefined}|${r.staleAtMs !== undefined}|${hasTtl}`;
  let terms = made.get(key);
  if (!terms) {
    const w = wordsOf(r, hasTtl);
    terms = {
      storeLabel: 'Redis',
      versionName: 'hash of the value',
      since: r.acquiredMs !== undefined ? 'Held since' : 'Seen since',
      ...(hasTtl ? { ttl: 'TTL' } : {}),
      liveness: w.liveness,
      effect: `Clearing deletes the key only if it still holds the value you saw; ${w.told}`,
      rule: RULE,
      trail: TRAIL,
      health: w.health,
    };
    made.set(key, terms);
  }
  return terms;
}

interface Words {
  liveness: string;
  /** What the holder learns of a release (ends the effect sentence). */
  told: string;
  health: HealthWords;
}

const NOT_JUDGED: HealthWords = {
  meaning: {
    unknown:
      'Liveness cannot be judged: the key has no TTL and its holder never refreshes it. It never expires by itself; only its owner or an operator can delete it.',
    'long-held':
      'Held longer than the configured limit. The key never expires and its holder never refreshes it, so whether the holder still runs cannot be judged.',
  },
  changes: { 'long-held': 'Never by itself: the key has no TTL; only its owner or an operator deletes it.' },
  advice: {
    unknown: 'Its liveness cannot be judged: check with its owner before clearing.',
    'long-held': 'Its liveness cannot be judged: clear only if you know its job is gone.',
  },
};

function wordsOf(r: Partial<Pick<RedisReading, 'format' | 'staleAtMs'>>, hasTtl: boolean): Words {
  if (r.staleAtMs !== undefined) return SETNX;
  if (!hasTtl)
    return {
      liveness: 'The key has no TTL: it stays until its owner or an operator deletes it.',
      told: 'its holder is not told until it next touches the key.',
      health: NOT_JUDGED,
    };
  if (r.format === 'lockboard') return LOCKBOARD;
  if (r.format === 'redisson') return REDISSON;
  if (r.format === 'laravel') return LARAVEL;
  return EXTENDABLE;
}

const LOCKBOARD: Words = {
  liveness: 'The holder extends the key’s TTL on schedule; Redis deletes the key when the TTL runs out.',
  told: 'the holder learns at its next extension and its signal aborts its work.',
  health: {
    meaning: {
      healthy: 'The holder extends the key’s TTL on schedule.',
      overdue: 'An extension is late (1.5 intervals without one). The holder may be slow, paused or crashed.',
      'long-held': 'The holder is extending its TTL, but has held it longer than the configured limit.',
    },
    changes: {
      healthy: 'Every extension pushes these back; when the TTL runs out Redis deletes the key.',
      'long-held': 'Every extension pushes these back; it stays long-held while this holder keeps it.',
      overdue: 'An extension makes it healthy again; when the TTL runs out Redis deletes the key.',
    },
    advice: {
      healthy: 'The holder is alive and extending it. Clearing aborts its work at its next extension.',
      'long-held': 'The holder is alive. Clear only if you know its job is stuck; it is aborted at its next extension.',
    },
  },
};

const REDISSON: Words = {
  liveness: 'Redisson’s watchdog renews the key’s TTL (30 s) every 10 s while the holder’s client runs.',
  told: 'the holder is not told: its watchdog stops renewing and its unlock later finds nothing.',
  health: {
    meaning: {
      healthy: 'Held: Redisson’s watchdog keeps renewing the key’s TTL, so the holder’s client is running.',
      'long-held': 'Held longer than the configured limit; the watchdog still renews it, so the client is running.',
    },
    changes: {
      healthy: 'The watchdog pushes the expiry back every 10 s; if the client stops, Redis deletes the key.',
      'long-held': 'The watchdog pushes the expiry back every 10 s; if the client stops, Redis deletes the key.',
    },
    advice: {
      healthy: 'Only if you know its work must stop: its client is running, and is not told of the release.',
      'long-held': 'Only if you know its job is stuck: its client is running, and is not told of the release.',
    },
  },
};

const LARAVEL: Words = {
  liveness: 'A Laravel lock is never extended: it ends when its owner releases it or Redis deletes it at its TTL.',
  told: 'a Laravel holder is never told and goes on as if it held the lock.',
  health: {
    meaning: {
      healthy: 'Held: the key’s TTL has not run out. A Laravel lock is never extended.',
      'long-held': 'Held longer than the configured limit; its TTL has not run out. A Laravel lock is never extended.',
    },
    changes: {
      healthy: 'Redis deletes the key when its TTL runs out; Laravel never extends it.',
      'long-held': 'Redis deletes the key when its TTL runs out; Laravel never extends it.',
    },
    advice: {
      healthy: 'Only if you know its job must stop: its holder is never told and keeps running.',
      'long-held': 'Only if you know its job is stuck: its holder is never told and keeps running.',
    },
  },
};

const EXTENDABLE: Words = {
  liveness: 'The key expires by itself when its TTL runs out, unless the holder extends it first.',
  told: 'the holder finds out only when it next extends or releases it.',
  health: {
    meaning: {
      healthy: 'Held: the key’s TTL has not run out. Its library may extend it.',
      'long-held': 'Held longer than the configured limit; the key’s TTL has not run out.',
    },
    changes: {
      healthy: 'Redis deletes the key when its TTL runs out, unless the holder extends it first.',
      'long-held': 'Redis deletes the key when its TTL runs out, unless the holder extends it first.',
    },
    advice: {
      healthy: 'Only if you know its holder must stop: the key still has time to live.',
      'long-held': 'Only if you know its job is stuck.',
    },
  },
};

const SETNX: Words = {
  liveness: 'The value is an expiry time its holder wrote; after it, the next acquirer takes the lock over (GETSET).',
  told: 'the holder is not told (the pattern records no owner).',
  health: {
    meaning: {
      healthy: 'Held: the expiry time in its value has not passed (on Redis’s clock). The owner is not recorded.',
      expired: 'The expiry time in its value has passed: the next acquirer takes it over.',
      'long-held': 'Held longer than the configured limit; the expiry time in its value has not passed.',
    },
    changes: {
      healthy: 'Becomes stale when that time passes; only a new acquirer writes a new time.',
      expired: 'It stays until an acquirer takes it over with GETSET or an operator clears it.',
    },
    advice: { expired: 'Yes: the expiry time its holder wrote has passed.' },
  },
};
