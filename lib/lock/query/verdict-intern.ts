// One copy of each verdict the index keeps: locks judged alike in one pass share one object instead of a sentence and
// evidence each. A verdict whose figures are marks (verdict/figures.ts: "its TTL (LEFT left)") is kept marked, so a
// hundred thousand Redis locks seen once, read in the same page, share one object; a row renders its figures from
// its own expiry when it is read (row-verdict.ts). Bounded like the shared words (shared.ts): verdicts that name each
// lock never make the set grow without limit.
import { markedVerdictOf, type MarkedVerdict } from '../verdict/figures';
import { verdictOf, type VerdictFields } from '../verdict/verdict';

/** A verdict as the index keeps it: its words marked, and how far the store's clock ran ahead of ours at the read. */
export interface IndexVerdict extends MarkedVerdict {
  /** The store's clock minus this process's when the verdict was read (ms): a row's figures are rendered on the store's. */
  skewMs: number;
}

const interned = new Map<string, IndexVerdict>();
const MAX = 10_000;

/** The index's copy of a judged view's verdict (`now`: the store's clock at the read), or undefined where unjudged. */
export function internVerdict(v: VerdictFields & object, now: number): IndexVerdict | undefined {
  const verdict: MarkedVerdict | undefined = markedVerdictOf(v) ?? verdictOf(v);
  if (!verdict) return undefined;
  let key = `${verdict.verdict}\u0000${verdict.sentence}\u0000${verdict.settleMs ?? ''}+${verdict.settleAfterExpiryMs ?? ''}`;
  for (const e of verdict.evidence) key += `\u0000${e.fact}\u0001${e.from}\u0001${e.at}`;
  const known = interned.get(key);
  if (known) return known;
  if (interned.size >= MAX) interned.clear();
  const kept: IndexVerdict = { ...verdict, skewMs: Number.isFinite(now) ? now - Date.now() : 0 };
  interned.set(key, kept);
  return kept;
}
