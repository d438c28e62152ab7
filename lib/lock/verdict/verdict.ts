// The verdict on a lock's holder (docs/verdict.md): what the world around a lock says of its holder, beyond the
// lock's own bytes. Stores supply signs (what they read, and what it points to); this file alone turns them into one
// verdict and one sentence, so the console, the API and the CLI judge every lock alike.
import type { LockHealth } from '../types';
import { hasFigures, markVerdict, renderVerdict, timesOf, type MarkedVerdict } from './figures';

/** Every verdict, most urgent first. */
export const VERDICTS = ['gone', 'stalled', 'alive', 'unknown'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const isVerdict = (v: unknown): v is Verdict => VERDICTS.includes(v as Verdict);

/** One thing read beyond the lock's bytes: what it says, where it was read, when (the store's clock, ISO). */
export interface Evidence {
  fact: string;
  from: string;
  at: string;
}

/**
 * What a sign rests on (docs/verdict.md). `absence`: the holder was looked for everywhere it could be (every pid
 * namespace, every ensemble member, the namespace it elects in…) and is not there: the only basis `gone` is said on.
 * `rule`: a tool's own expiry rule (a stamp past its time, a lease not renewed within its duration): contenders
 * would take the lock over and its health says `expired`, but it is no evidence that the holder is gone.
 */
export type SignBasis = 'absence' | 'rule';

/** A store's reading of its holder: the evidence and what it points to, in the store's own words (`says`). */
export interface HolderSign extends Evidence {
  points: Verdict;
  /** Required for `gone`: a sign pointing to `gone` without `absence` is judged `unknown` (fail closed). */
  basis?: SignBasis;
  /** A judgement that needs a second read (a renewal, an expiry moving): how long until a second look settles it. */
  settleMs?: number;
  /**
   * Instead of `settleMs`: a read this long after the lock's expiry settles it (the wait then runs to the expiry, and
   * locks expiring at different times share one verdict: figures.ts). A lock's only settling sign, where set.
   */
  settleAfterExpiryMs?: number;
  /** The clause of the sentence, e.g. "pid 4711 (python3) is no longer running". */
  says: string;
}

export interface LockVerdict {
  verdict: Verdict;
  sentence: string;
  evidence: Evidence[];
  /** Unknown until a second read this long after the first (`lockboard why --settle` waits it). */
  settleMs?: number;
}

const LEAD: Record<Verdict, string> = {
  gone: 'Holder gone',
  stalled: 'Stalled',
  alive: 'Alive',
  unknown: 'Unknown',
};

/** What a lock that no store read beyond its bytes is told: what would settle it. */
function unread(health: LockHealth, liveness: string | undefined): LockVerdict {
  const settle = liveness ? ` ${liveness}` : '';
  return {
    verdict: 'unknown',
    sentence: `Unknown: nothing beyond the lock's bytes was read (its own bytes say ${health}); evidence of the holder's process, session or renewals would settle it.${settle}`,
    evidence: [],
  };
}

/** Where a sign points once its basis is weighed: `gone` only on evidence of absence, else `unknown`. */
export const pointsOf = (s: HolderSign): Verdict =>
  s.points === 'gone' && s.basis !== 'absence' ? 'unknown' : s.points;

/**
 * The verdict from a store's signs: any sign of a gone holder wins, then stalled, then alive; otherwise unknown,
 * in the words of the signs that say why. No signs: unknown, saying nothing beyond the lock's bytes was read.
 */
export function judgeHolder(view: {
  health: LockHealth;
  signs?: HolderSign[];
  terms?: { liveness?: string };
}): MarkedVerdict {
  const signs = view.signs ?? [];
  if (!signs.length) return unread(view.health, view.terms?.liveness);
  const evidence = signs.map(({ fact, from, at }) => ({ fact, from, at }));
  const verdict = VERDICTS.find((v) => signs.some((s) => pointsOf(s) === v));
  if (verdict) {
    const says = signs.filter((s) => pointsOf(s) === verdict).map((s) => s.says);
    const settle = verdict === 'unknown' ? Math.max(0, ...signs.map((s) => s.settleMs ?? 0)) : 0;
    const afterExpiry = verdict === 'unknown' ? signs.find((s) => s.settleAfterExpiryMs !== undefined) : undefined;
    return {
      verdict,
      sentence: `${LEAD[verdict]}: ${says.join('; ')}.`,
      evidence,
      ...(settle ? { settleMs: settle } : {}),
      ...(afterExpiry ? { settleAfterExpiryMs: afterExpiry.settleAfterExpiryMs } : {}),
    };
  }
  return unread(view.health, view.terms?.liveness);
}

/** Whether a view is judged at all: a held lock (not free, not data, not a queued waiter). */
export const isJudged = (v: { health: LockHealth; format: string; queuedFor?: string; pending?: boolean }) =>
  v.health !== 'free' && v.format !== 'other' && v.format !== 'data' && v.queuedFor === undefined && v.pending !== true;

/** The flat verdict fields a view carries (LockInfo.verdict, sentence, evidence, settleMs). */
export interface VerdictFields {
  verdict?: Verdict;
  sentence?: string;
  evidence?: Evidence[];
  settleMs?: number;
}

/** A view's verdict as one object, or undefined where it is not judged. */
export function verdictOf(v: VerdictFields): LockVerdict | undefined {
  if (!v.verdict) return undefined;
  return {
    verdict: v.verdict,
    sentence: v.sentence ?? '',
    evidence: v.evidence ?? [],
    ...(v.settleMs ? { settleMs: v.settleMs } : {}),
  };
}

type Judgeable = VerdictFields & {
  health: LockHealth;
  expiresAt?: string;
  updatedAt?: string;
  createdAt?: string;
  format: string;
  signs?: HolderSign[];
  queuedFor?: string;
  pending?: boolean;
  terms?: { liveness?: string };
};

/**
 * The view with its verdict set and its signs folded in (the signs are the store's; the verdict is everyone's). One
 * copy without the old fields (a `delete` would turn each of a million views into a slow dictionary object).
 */
export function withVerdict<V extends Judgeable>(view: V): V {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { signs, verdict, sentence, evidence, settleMs, ...rest } = view;
  if (!isJudged(view)) return rest as V;
  const marked = judgeHolder(view);
  // the words as read; the marked ones kept beside the view for the console's index (figures.ts)
  const moving =
    marked.settleAfterExpiryMs !== undefined ||
    hasFigures(marked.sentence) ||
    marked.evidence.some((e) => hasFigures(e.fact));
  const judged = moving ? renderVerdict(marked, timesOf(view)) : marked;
  if (moving) markVerdict(rest, marked);
  (rest as VerdictFields).verdict = judged.verdict;
  (rest as VerdictFields).sentence = judged.sentence;
  (rest as VerdictFields).evidence = judged.evidence;
  if (judged.settleMs) (rest as VerdictFields).settleMs = judged.settleMs;
  return rest as V;
}

export type VerdictCounts = Record<Verdict, number>;
export const zeroVerdicts = (): VerdictCounts => ({ gone: 0, stalled: 0, alive: 0, unknown: 0 });
