// Small pieces every store's signs are written with (docs/verdict.md): a duration in whole seconds for a sentence,
// and a sign maker stamped with the time of the read.
import type { HolderSign } from './verdict';

export { seconds } from './figures';

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

/** The sign, marked as evidence of absence that reaches everywhere its holder could be: the basis `gone` needs. */
export function absent(sign: HolderSign): HolderSign {
  sign.basis = 'absence';
  return sign;
}

/** The sign, marked as a tool's own expiry rule: the lock is expired, its holder not proven gone. */
export function byRule(sign: HolderSign): HolderSign {
  sign.basis = 'rule';
  return sign;
}

/** The words a sign by a tool's expiry rule ends with: what it does not prove. */
export const RULE_IS_NOT_ABSENCE = 'that expires the lock, but nothing read shows whether its holder still runs';
