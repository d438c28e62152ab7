// A whole-bucket source (or any prefix holding the audit prefix) lists around its audit trail: two ranges of the one
// listing, names before the trail and names after it (GCS: endOffset / startOffset; S3: up to the trail, then
// StartAfter), so the trail is never read, however long it grows. Page tokens carry the range they continue.
import { LockOptionsError } from '../errors';

/** S3's StartAfter (exclusive) past every name of the trail: Lockboard's audit names are ASCII. */
export const afterTrail = (gap: TrailGap): string => `${gap.before}\u{10FFFF}`;

interface TrailGap {
  /** The first name of the trail: the first range ends before it. */
  before: string;
  /** The first name after every name of the trail: the second range starts at it. */
  after: string;
}

/** The gap to leave in a listing of `prefix`, or null when the trail is not under it. */
export function trailGap(prefix: string, auditPrefix: string): TrailGap | null {
  if (!auditPrefix || !auditPrefix.startsWith(prefix)) return null;
  const last = auditPrefix.charCodeAt(auditPrefix.length - 1);
  return { before: auditPrefix, after: auditPrefix.slice(0, -1) + String.fromCharCode(last + 1) };
}

interface GapPage {
  /** The range to list ("a": before the trail, "b": after it) and its own page token. */
  phase: 'a' | 'b';
  range: { endOffset: string } | { startOffset: string };
  token?: string;
  /** The page token to hand out after this page, given the range's own next token. */
  next(rangeToken: string | undefined): string | undefined;
}

/** Which range `pageToken` continues ("a:…" before the trail, "b:…" after it; none: the start). */
export function gapPage(gap: TrailGap, pageToken: string | undefined): GapPage {
  const m = pageToken === undefined ? ['', 'a', ''] : /^([ab]):(.*)$/s.exec(pageToken);
  if (!m) throw new LockOptionsError(`pageToken ${JSON.stringify(pageToken)} is not one this listing returned.`);
  const phase = m[1] as 'a' | 'b';
  return {
    phase,
    range: phase === 'a' ? { endOffset: gap.before } : { startOffset: gap.after },
    ...(m[2] ? { token: m[2] } : {}),
    next: (rangeToken) => (rangeToken ? `${phase}:${rangeToken}` : phase === 'a' ? 'b:' : undefined),
  };
}
