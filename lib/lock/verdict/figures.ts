// Figures that move with time, written into a sign's words as marks instead of numbers (docs/verdict.md): "its TTL
// (LEFT left)" rather than "its TTL (86399 s left)", "its last write was SINCE_MIN ago" rather than "3 min ago". A
// mark is computed from the lock's own times (its expiry, its last update, its creation) and the time it is
// rendered at: the view's words at the read (the same words as before); the console's index keeps the marked words,
// which a million locks read alike share (query/verdict-intern.ts), and renders a row's figures when the row is read;
// the browser renders a row's sentence from its times on every tick (`sentenceAt`), so a figure is never a pass old.
import type { LockVerdict } from './verdict';

/** A duration in whole seconds, never negative: "12 s". */
export const seconds = (ms: number): string => `${Math.max(0, Math.round(ms / 1000))} s`;

/** A duration in whole seconds, in minutes from two minutes on: "12 s", "3 min". */
export function minutes(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 120 ? `${Math.round(s / 60)} min` : `${s} s`;
}

/** The lock's own times a mark is computed from (ms; NaN: the lock has none). */
export interface FigureTimes {
  expires: number;
  updated: number;
  created: number;
}

const iso = (ms: number) => (Number.isNaN(ms) ? 'none' : new Date(ms).toISOString());

/** Each mark's figure for a lock's times, rendered at `at`. */
const FIGURES = {
  left: (t: FigureTimes, at: number) => seconds(t.expires - at),
  leftmin: (t: FigureTimes, at: number) => minutes(t.expires - at),
  past: (t: FigureTimes, at: number) => seconds(at - t.expires),
  pastmin: (t: FigureTimes, at: number) => minutes(at - t.expires),
  expiry: (t: FigureTimes) => iso(t.expires),
  leftms: (t: FigureTimes, at: number) => String(Math.round(t.expires - at)),
  /** a second after the expiry: when a second read settles a lease */
  settle: (t: FigureTimes, at: number) => seconds(t.expires + 1000 - at),
  since: (t: FigureTimes, at: number) => seconds(at - t.updated),
  sincemin: (t: FigureTimes, at: number) => minutes(at - t.updated),
  updated: (t: FigureTimes) => iso(t.updated),
  aftercreation: (t: FigureTimes) => minutes(t.updated - t.created),
};
type Figure = keyof typeof FIGURES;
const mark = (figure: Figure) => `\u0002${figure}\u0003`;

/** Whole seconds from the time rendered to the lock's expiry ("12 s"). */
export const LEFT = mark('left');
/** The same in minutes from two minutes on ("3 min"). */
export const LEFT_MIN = mark('leftmin');
/** Whole seconds from the lock's expiry to the time rendered ("12 s"): how long ago it passed. */
export const PAST = mark('past');
/** The same in minutes from two minutes on. */
export const PAST_MIN = mark('pastmin');
/** The lock's expiry, ISO. */
export const EXPIRY = mark('expiry');
/** Milliseconds from the time rendered to the lock's expiry (a TTL as read). */
export const LEFT_MS = mark('leftms');
/** Whole seconds from the time rendered to a second after the lock's expiry (a read then settles it). */
export const SETTLE = mark('settle');
/** Whole seconds from the lock's last update to the time rendered: how long ago it was written or first seen. */
export const SINCE = mark('since');
/** The same in minutes from two minutes on ("3 min"). */
export const SINCE_MIN = mark('sincemin');
/** The lock's last update, ISO. */
export const UPDATED = mark('updated');
/** How long after its creation the lock was last updated ("40 s", "3 min"). */
export const AFTER_CREATION = mark('aftercreation');

const MARK = /\u0002([a-z]+)\u0003/g;

export const hasFigures = (text: string): boolean => text.includes('\u0002');

/** `text` with its marks filled for a lock of times `t`, rendered at `at` (ms, the store's clock). */
export function renderFigures(text: string, t: FigureTimes, at: number): string {
  if (!hasFigures(text)) return text;
  return text.replace(MARK, (whole, figure: string) => (figure in FIGURES ? FIGURES[figure as Figure](t, at) : whole));
}

/** A view's (or a row's) times as figures read them. */
export const timesOf = (v: { expiresAt?: string; updatedAt?: string; createdAt?: string }): FigureTimes => ({
  expires: v.expiresAt ? Date.parse(v.expiresAt) : Number.NaN,
  updated: v.updatedAt ? Date.parse(v.updatedAt) : Number.NaN,
  created: v.createdAt ? Date.parse(v.createdAt) : Number.NaN,
});

/**
 * A verdict whose words may hold marks. `settleAfterExpiryMs`: a read this long after the lock's expiry settles it
 * (the wait runs to the expiry, so locks expiring at different times share it); its `settleMs` is rendered at the read.
 */
export interface MarkedVerdict extends LockVerdict {
  settleAfterExpiryMs?: number;
}

/** The wait a marked verdict names, as of the read at `read`. */
export function settleOf(v: MarkedVerdict, t: FigureTimes, read: number): number | undefined {
  if (v.settleAfterExpiryMs === undefined) return v.settleMs;
  const ms = Math.round(t.expires + v.settleAfterExpiryMs - read);
  return ms > 0 ? ms : v.settleMs;
}

/**
 * A marked verdict's words for a lock of times `t`: each piece of evidence at its own read, the sentence at `now`
 * (the read's time unless given: an index row's figures are those of the moment it is read).
 */
export function renderVerdict(v: MarkedVerdict, t: FigureTimes, now?: number): LockVerdict {
  const read = v.evidence[0] ? Date.parse(v.evidence[0].at) : Number.NaN;
  const settleMs = settleOf(v, t, read);
  return {
    verdict: v.verdict,
    sentence: renderFigures(v.sentence, t, now ?? read),
    evidence: v.evidence.map((e) =>
      hasFigures(e.fact) ? { ...e, fact: renderFigures(e.fact, t, Date.parse(e.at)) } : e,
    ),
    ...(settleMs ? { settleMs } : {}),
  };
}

/**
 * The marked verdict of a judged view whose words have figures: a property no copy, JSON or comparison sees (not
 * enumerable, a symbol's), on the view itself (a WeakMap's table grew by an entry a lock listed, ~15 bytes a lock).
 */
const MARKED = Symbol('marked verdict');

export const markVerdict = (view: object, v: MarkedVerdict): void =>
  void Object.defineProperty(view, MARKED, { value: v });

/** The view's verdict with its figures still marks, or undefined where its words have none. */
export const markedVerdictOf = (view: object): MarkedVerdict | undefined =>
  (view as { [MARKED]?: MarkedVerdict })[MARKED];

/**
 * A row's sentence at `now` (the browser's tick, on the server's clock): rendered from its marked words and its times
 * where it carries them (`sentenceMarks`, query/row-view.ts), else the sentence as sent.
 */
export function sentenceAt(
  row: { sentence?: string; sentenceMarks?: string; expiresAt?: string; updatedAt?: string; createdAt?: string },
  now: number,
): string | undefined {
  return row.sentenceMarks ? renderFigures(row.sentenceMarks, timesOf(row), now) : row.sentence;
}
