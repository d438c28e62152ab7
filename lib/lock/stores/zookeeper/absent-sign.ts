// The sign of a holder session found in no `cons` (docs/verdict.md "The reach of evidence"). Its client may be between
// two connections: the session stays valid for its whole timeout and resumes on any member, so absence is `gone` only
// once the members read are the whole ensemble (ensemble.ts) and the session has stayed absent for its timeout since
// the first pass that missed it (session-memory.ts). The server ends an expired session at its next tick, and its node
// with it: a node still there a tick past that deadline proves the session was renewed between two passes, unseen, so
// its absence starts over.
import { absent, seconds } from '../../verdict/sign';
import type { HolderSign } from '../../verdict/verdict';
import { SessionMemory, type Absence } from './session-memory';
import type { Sessions } from './sessions';

type Sign = (points: HolderSign['points'], says: string, fact: string) => HolderSign;

/** Unknown, with how long until a second look settles it. */
const later = (s: HolderSign, settleMs: number): HolderSign => ({ ...s, settleMs: Math.max(1, Math.round(settleMs)) });

/** Why absence from the members read proves nothing here, or null when they are the whole ensemble. */
function blindSpot(sessions: Sessions): string | null {
  if (sessions.missing)
    return `the servers that answered (${sessions.missing}): adding cons to 4lw.commands.whitelist there would settle it`;
  const reach = sessions.reach;
  if (!reach) return 'the members read, whose ensemble was not asked: reading conf on every member would settle it';
  if (reach.whole) return null;
  if (reach.notRead.length && !reach.why)
    return `the members read (${sessions.asked?.join(', ')}), but the ensemble also has ${reach.notRead.join(', ')}, not read: it may be connected there; listing every member in the source would settle it`;
  return `the members read (${sessions.asked?.join(', ')}), and whether they are the whole ensemble is unknown (${reach.why ?? reach.notRead.join(', ')}): adding conf to 4lw.commands.whitelist on every member would settle it`;
}

/** How long a session has been absent, in words: since the first pass that missed it, and when it was last seen. */
function absentFor(seen: Absence, nowMs: number): string {
  const last =
    seen.lastSeenMs === undefined
      ? 'never seen connected by this reader'
      : `last seen connected ${seconds(nowMs - seen.lastSeenMs)} ago`;
  return `absent from every member’s cons for ${seconds(nowMs - seen.sinceMs)}, ${last}`;
}

/** The sign of session `sid` (hex, as `cons` keys it; `label` as shown) in no `cons` of the members read at `nowMs`. */
export function absentSign(sid: string, label: string, sessions: Sessions, nowMs: number, sign: Sign): HolderSign {
  const who = `session ${label}`;
  const blind = blindSpot(sessions);
  const fact = `ephemeralOwner ${label}, in no cons of ${sessions.asked?.join(', ')}`;
  if (blind) return sign('unknown', `${who} is not in the cons of ${blind}`, fact);
  const memory = sessions.memory ?? new SessionMemory(); // no earlier pass: absent since now
  const seen = memory.absentAt(sid, nowMs);
  const timeoutMs = seen.timeoutMs ?? sessions.reach?.maxSessionTimeoutMs;
  const since = absentFor(seen, nowMs);
  if (timeoutMs === undefined)
    return sign(
      'unknown',
      `${who} is connected to no member (${since}), and the servers’ maxSessionTimeout is unread: adding conf to 4lw.commands.whitelist would settle it`,
      fact,
    );
  const whose = seen.timeoutMs
    ? `its ${seconds(timeoutMs)} timeout`
    : `the servers’ longest session timeout (maxSessionTimeout ${seconds(timeoutMs)}: it was never seen connected)`;
  const deadline = seen.sinceMs + timeoutMs;
  if (nowMs < deadline)
    return later(
      sign(
        'unknown',
        `${who} is connected to no member of the ensemble (${since}): its client may resume it on any member until ${whose} has passed, ${seconds(deadline - nowMs)} from now`,
        fact,
      ),
      deadline - nowMs,
    );
  const tickMs = sessions.reach?.tickMs;
  if (tickMs === undefined)
    return sign(
      'unknown',
      `${who} is past ${whose} (${since}), but the servers’ tickTime is unread, so whether ZooKeeper renewed it between two reads is unknown: adding conf to 4lw.commands.whitelist would settle it`,
      fact,
    );
  if (nowMs > deadline + tickMs) {
    memory.restart(sid, nowMs);
    return later(
      sign(
        'unknown',
        `${who} outlived ${whose} while absent from every member’s cons: ZooKeeper renewed it, so its client reconnected between two reads`,
        fact,
      ),
      timeoutMs,
    );
  }
  return absent(
    sign(
      'gone',
      `${who} has been connected to no member of the ensemble past ${whose} (${since}): ZooKeeper ends it at its next tick, and its node with it`,
      fact,
    ),
  );
}
