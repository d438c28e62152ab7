// What a lock object's own bytes and the store's clock say of its holder (stores.md "Verdict"), for GCS and S3 alike:
// no extra read. A format whose holder refreshes at a known interval: refreshed within it → alive; its TTL run out
// by the format's own rule → expired (unknown: a rule is no evidence of absence); overdue in between → unknown until its TTL settles it. A TTL format with no stated
// interval: a refresh seen within the TTL → alive; taken and never refreshed → unknown until the TTL settles it.
// Heartbeat-less formats (Terraform, Pulumi, plain objects) → unknown, in the format's words of what would settle it.
import { AFTER_CREATION, LEFT_MIN, minutes as ago, PAST_MIN, SINCE_MIN, UPDATED } from '../verdict/figures';
import { byRule, RULE_IS_NOT_ABSENCE } from '../verdict/sign';
import type { HolderSign } from '../verdict/verdict';
import type { FormatReading, LockFormatModule, ObjectView } from './formats';

interface Seen {
  format: LockFormatModule;
  reading: FormatReading;
  view: ObjectView;
  now: number;
  staleAt?: number;
}

/**
 * The evidence: the object's write time and the format's own fields, read with it. Its times are marks (figures.ts),
 * filled from the view's own times (updatedAt, createdAt, expiresAt: the format's stale time), so objects read alike
 * share one set of words; the creation is the view's only where the format records no acquire time of its own.
 */
function factOf({ view, reading, staleAt, now }: Seen): string {
  let fact = `updated ${UPDATED}`;
  if (view.createdMs !== view.updatedMs)
    fact += `, ${reading.acquiredMs === undefined ? AFTER_CREATION : ago(view.updatedMs - view.createdMs)} after its creation`;
  if (reading.refreshMs !== undefined) fact += `, refresh every ${ago(reading.refreshMs)}`;
  if (staleAt !== undefined) fact += now < staleAt ? `, stale in ${LEFT_MIN}` : `, stale ${PAST_MIN} ago`;
  return fact;
}

/** The pass's time as ISO, computed once per pass (every lock of a listing is judged at the same `now`). */
let lastNow = NaN;
let lastAt = '';
const isoNow = (now: number) => (now === lastNow ? lastAt : ((lastNow = now), (lastAt = new Date(now).toISOString())));

/**
 * The holder's signs from the object as read, at `now` on the store's clock. None for a released marker. Its figures
 * are marks: how long since the last write (SINCE_MIN), until or past the stale time (the view's expiry: LEFT_MIN,
 * PAST_MIN); a wait that settles it runs to that expiry (`settleAfterExpiryMs`).
 */
export function objectSigns(s: Seen): HolderSign[] {
  const { format, reading, view, now, staleAt } = s;
  if (reading.released) return [];
  const fact = factOf(s);
  const from = `the object's write times and ${format.label} fields`;
  const at = isoNow(now);
  const sign = (points: HolderSign['points'], says: string, settles?: true): HolderSign[] => {
    const one: HolderSign = { points, says, fact, from, at }; // no spreads: a listing builds 100 000 of these
    if (settles) one.settleAfterExpiryMs = 0; // a read at the stale time settles it
    return [one];
  };
  const age = now - view.updatedMs;
  if (staleAt === undefined) {
    const clause = format.noHeartbeat?.(reading);
    if (clause) return sign('unknown', clause);
    return sign(
      'unknown',
      `${format.label} records no heartbeat and no expiry: only its owner${reading.identity ? ` ${reading.identity}` : ''} is known, and asking it would settle it`,
    );
  }
  if (now >= staleAt)
    return sign(
      'unknown',
      `its last write was ${SINCE_MIN} ago, ${PAST_MIN} past ${format.label}’s own expiry: by that rule a contender takes it over; ${RULE_IS_NOT_ABSENCE}`,
    ).map(byRule);
  if (reading.refreshMs !== undefined) {
    if (age <= 1.5 * reading.refreshMs)
      return sign('alive', `its holder wrote it ${SINCE_MIN} ago (it refreshes every ${ago(reading.refreshMs)})`);
    return sign(
      'unknown',
      `its refresh is overdue (last ${SINCE_MIN} ago, every ${ago(reading.refreshMs)}); by ${format.label}’s rule it expires in ${LEFT_MIN} unless it refreshes`,
      true,
    );
  }
  if (view.updatedMs > view.createdMs)
    return sign('alive', `its holder refreshed it ${SINCE_MIN} ago, within its expiry (in ${LEFT_MIN})`);
  return sign(
    'unknown',
    `taken ${SINCE_MIN} ago and not refreshed since; ${format.label} states no refresh interval: a refresh before its expiry (in ${LEFT_MIN}) would show it alive, none would make it expire`,
    true,
  );
}
