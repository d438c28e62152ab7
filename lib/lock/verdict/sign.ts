// Small pieces every store's signs are written with (stores.md "Verdict"): a duration in whole seconds for a sentence,
// and a sign maker stamped with the time of the read.
import type { HolderSign } from './verdict';

/** A duration in whole seconds, never negative: "12 s". */
export const seconds = (ms: number): string => `${Math.max(0, Math.round(ms / 1000))} s`;

export type SignMaker = (
  points: HolderSign['points'],
  says: string,
  fact: string,
  from: string,
  settleMs?: number,
) => HolderSign;

/** Signs read at `now` (the store's clock): each carries that time, and `settleMs` only where a second read settles it. */
export function signsAt(now: number): SignMaker {
  const at = new Date(now).toISOString();
  return (points, says, fact, from, settleMs) => ({ points, says, fact, from, at, ...(settleMs ? { settleMs } : {}) });
}
