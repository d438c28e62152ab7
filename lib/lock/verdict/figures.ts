// Figures that move with time, written into a sign's words as marks instead of numbers (docs/verdict.md): "its TTL
// (LEFT left)" rather than "its TTL (86399 s left)". The view's sentence and evidence are rendered from the marks at
// the read (the same words as before); the console's index keeps the marked words, which a million locks read alike
// share (query/verdict-intern.ts), and renders a row's figures from its own expiry when the row is read, so a figure
// is never a pass old. Only the lock's own expiry is marked: every other figure is written as it was.
import type { LockVerdict } from './verdict';

/** A duration in whole seconds, never negative: "12 s". */
export const seconds = (ms: number): string => `${Math.max(0, Math.round(ms / 1000))} s`;

/** Whole seconds from the time rendered to the lock's expiry ("12 s"). */
export const LEFT = '\u0002left\u0003';
/** Whole seconds from the lock's expiry to the time rendered ("12 s"): how long ago it passed. */
export const PAST = '\u0002past\u0003';
/** The lock's expiry, ISO. */
export const EXPIRY = '\u0002expiry\u0003';
/** Milliseconds from the time rendered to the lock's expiry (a TTL as read). */
export const LEFT_MS = '\u0002leftms\u0003';

const MARK = /\u0002(left|past|expiry|leftms)\u0003/g;

export const hasFigures = (text: string): boolean => text.includes('\u0002');

/** `text` with its marks filled for a lock expiring at `expires`, seen at `at` (ms, the store's clock). */
export function renderFigures(text: string, expires: number, at: number): string {
  if (!hasFigures(text)) return text;
  return text.replace(MARK, (_, mark: string) => {
    if (mark === 'left') return seconds(expires - at);
    if (mark === 'past') return seconds(at - expires);
    if (mark === 'expiry') return Number.isNaN(expires) ? 'none' : new Date(expires).toISOString();
    return String(Math.round(expires - at));
  });
}

/**
 * A marked verdict's words for a lock expiring at `expires`: each piece of evidence at its own read, the sentence at
 * `now` (the read's time unless given: an index row's figures are those of the moment it is read).
 */
export function renderVerdict(v: LockVerdict, expires: number, now?: number): LockVerdict {
  const read = v.evidence[0] ? Date.parse(v.evidence[0].at) : Number.NaN;
  const at = now ?? read;
  return {
    verdict: v.verdict,
    sentence: renderFigures(v.sentence, expires, at),
    evidence: v.evidence.map((e) =>
      hasFigures(e.fact) ? { ...e, fact: renderFigures(e.fact, expires, Date.parse(e.at)) } : e,
    ),
    ...(v.settleMs ? { settleMs: v.settleMs } : {}),
  };
}

/**
 * The marked verdict of a judged view whose words have figures: a property no copy, JSON or comparison sees (not
 * enumerable, a symbol's), on the view itself (a WeakMap's table grew by an entry a lock listed, ~15 bytes a lock).
 */
const MARKED = Symbol('marked verdict');

export const markVerdict = (view: object, v: LockVerdict): void =>
  void Object.defineProperty(view, MARKED, { value: v });

/** The view's verdict with its figures still marks, or undefined where its words have none. */
export const markedVerdictOf = (view: object): LockVerdict | undefined => (view as { [MARKED]?: LockVerdict })[MARKED];
