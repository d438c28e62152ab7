// What the locks of one format in one source share (format, labels, notes, the store's words), interned: the index keeps one
// copy per set, not one per lock.
import type { LockView } from '../store';

/** What every lock of one format in one source shares. */
export interface Shared {
  store: string;
  format: LockView['format'];
  /** What an expired lock of this set becomes (absent where the lock records no expiry). */
  afterExpiry: LockView['afterExpiry'];
  source: string;
  bucket: string;
  formatLabel: string;
  releaseRule: LockView['releaseRule'];
  releaseNote: string;
  note: string | undefined;
  terms: LockView['terms'];
}

const shared = new Map<string, Shared>();
/**
 * A number per distinct set of words, found once per terms object: a store that shares one object per set of words
 * (most do) is never serialised again, and the key below stays short.
 */
const termsIds = new WeakMap<LockView['terms'], number>();
const idOfText = new Map<string, number>();
let lastTermsId = 0;

function termsId(terms: LockView['terms']): number {
  let id = termsIds.get(terms);
  if (id === undefined) {
    const text = JSON.stringify(terms);
    id = idOfText.get(text);
    if (id === undefined) {
      if (idOfText.size > 10_000) idOfText.clear(); // words that name each lock: never an unbounded map
      idOfText.set(text, (id = ++lastTermsId));
    }
    termsIds.set(terms, id);
  }
  return id;
}

/** The set the last lock used: a listing's locks mostly share one, found without building its key. */
let last: Shared | undefined;

/**
 * The same words, by value: most stores make a new terms object per lock, and comparing its few fields with the last
 * set's is far cheaper than serialising it (12 µs a lock, a third of a DynamoDB listing's time).
 */
function sameWords(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (depth > 2 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys)
    if (!sameWords((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

const sameAs = (s: Shared, v: LockView) =>
  sameWords(s.terms, v.terms) &&
  s.format === v.format &&
  s.afterExpiry === v.afterExpiry &&
  s.formatLabel === v.formatLabel &&
  s.releaseNote === v.releaseNote &&
  s.note === v.note &&
  s.source === v.source &&
  s.bucket === v.bucket &&
  s.store === v.store &&
  s.releaseRule === v.releaseRule;

export function sharedOf(v: LockView): Shared {
  if (last && sameAs(last, v)) return last;
  last = keyedShared(v);
  return last;
}

function keyedShared(v: LockView): Shared {
  const terms = termsId(v.terms);
  const key = `${v.format}\u0000${v.afterExpiry ?? ''}\u0000${v.store}\u0000${v.source}\u0000${v.bucket}\u0000${v.formatLabel}\u0000${v.releaseRule}\u0000${v.releaseNote}\u0000${v.note ?? ''}\u0000${terms}`;
  let s = shared.get(key);
  if (!s) {
    if (shared.size > 10_000) shared.clear(); // notes that name each lock: no interning, and no unbounded map
    s = {
      store: v.store,
      format: v.format,
      afterExpiry: v.afterExpiry,
      source: v.source,
      bucket: v.bucket,
      formatLabel: v.formatLabel,
      releaseRule: v.releaseRule,
      releaseNote: v.releaseNote,
      note: v.note,
      terms: v.terms,
    };
    shared.set(key, s);
  }
  return s;
}
