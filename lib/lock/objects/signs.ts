// What a lock object's own bytes and the store's clock say of its holder (stores.md "Verdict"), for GCS and S3 alike:
// no extra read. A format whose holder refreshes at a known interval: refreshed within it → alive; its TTL run out
// by the format's own rule → gone; overdue in between → unknown until its TTL settles it. A TTL format with no stated
// interval: a refresh seen within the TTL → alive; taken and never refreshed → unknown until the TTL settles it.
// Heartbeat-less formats (Terraform, Pulumi, plain objects) → unknown, in the format's words of what would settle it.
import type { HolderSign } from '../verdict/verdict';
import type { FormatReading, LockFormatModule, ObjectView } from './formats';

const ago = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 120 ? `${Math.round(s / 60)} min` : `${s} s`;
};

interface Seen {
  format: LockFormatModule;
  reading: FormatReading;
  view: ObjectView;
  now: number;
  staleAt?: number;
}

/** The evidence: the object's write times and the format's own fields, read with it. */
function factOf({ view, reading, staleAt }: Seen): string {
  const parts = [`updated ${new Date(view.updatedMs).toISOString()}`];
  if (view.createdMs !== view.updatedMs) parts.push(`created ${new Date(view.createdMs).toISOString()}`);
  if (reading.refreshMs !== undefined) parts.push(`refresh every ${ago(reading.refreshMs)}`);
  if (staleAt !== undefined) parts.push(`stale at ${new Date(staleAt).toISOString()}`);
  return parts.join(', ');
}

/** The holder's signs from the object as read, at `now` on the store's clock. None for a released marker. */
export function objectSigns(s: Seen): HolderSign[] {
  const { format, reading, view, now, staleAt } = s;
  if (reading.released) return [];
  const base = {
    fact: factOf(s),
    from: `${view.name} (its write times and ${format.label} fields)`,
    at: new Date(now).toISOString(),
  };
  const sign = (points: HolderSign['points'], says: string, settleMs?: number): HolderSign[] => [
    { ...base, points, says, ...(settleMs && settleMs > 0 ? { settleMs: Math.round(settleMs) } : {}) },
  ];
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
      'gone',
      `its last write was ${ago(age)} ago, ${ago(now - staleAt)} past ${format.label}’s own expiry: by that rule its holder is gone`,
    );
  const left = staleAt - now;
  if (reading.refreshMs !== undefined) {
    if (age <= 1.5 * reading.refreshMs)
      return sign('alive', `its holder wrote it ${ago(age)} ago (it refreshes every ${ago(reading.refreshMs)})`);
    return sign(
      'unknown',
      `its refresh is overdue (last ${ago(age)} ago, every ${ago(reading.refreshMs)}); by ${format.label}’s rule it is gone in ${ago(left)} unless it refreshes`,
      left,
    );
  }
  if (view.updatedMs > view.createdMs)
    return sign('alive', `its holder refreshed it ${ago(age)} ago, within its expiry (in ${ago(left)})`);
  return sign(
    'unknown',
    `taken ${ago(age)} ago and not refreshed since; ${format.label} states no refresh interval: a refresh before its expiry (in ${ago(left)}) would show it alive, none would make it gone`,
    left,
  );
}
