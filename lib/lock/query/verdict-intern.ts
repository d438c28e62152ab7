// One copy of each verdict the index keeps: locks judged alike in one pass (a hundred thousand Redis locks "seen
// once", their evidence read at the same moment) share one object instead of a sentence and evidence each. Bounded
// like the shared words (shared.ts): a set of verdicts that name each lock never grows without limit.
import { verdictOf, type LockVerdict, type VerdictFields } from '../verdict/verdict';

const interned = new Map<string, LockVerdict>();
const MAX = 10_000;

export function internVerdict(v: VerdictFields): LockVerdict | undefined {
  const verdict = verdictOf(v);
  if (!verdict) return undefined;
  let key = `${verdict.verdict}\u0000${verdict.sentence}\u0000${verdict.settleMs ?? ''}`;
  for (const e of verdict.evidence) key += `\u0000${e.fact}\u0001${e.from}\u0001${e.at}`;
  const known = interned.get(key);
  if (known) return known;
  if (interned.size >= MAX) interned.clear();
  interned.set(key, verdict);
  return verdict;
}
