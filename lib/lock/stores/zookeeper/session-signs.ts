// What a ZooKeeper lock's holder session says of its holder (docs/verdict.md), from the `cons` of every ensemble
// member read once per listing pass (sessions.ts): the session connected and answered within half its timeout (its
// client pings every third of it) → alive; connected but silent longer → stalled (the server ends it at its
// timeout, and its ephemeral node with it); in no member's `cons` → absent-sign.ts (unknown while its client may
// still resume it, or while members are not read); `cons` refused by a member → unknown, naming the setting that
// settles it. Silence is measured on the server's own monotonic clock (sessions.ts).
import { RULE_IS_NOT_ABSENCE } from '../../verdict/sign';
import type { HolderSign } from '../../verdict/verdict';
import type { ZkLock } from './read';
import { absentSign } from './absent-sign';
import { sessionLabel, type SessionInfo, type Sessions } from './sessions';

const ago = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;
const iso = (ms: number | undefined) => (ms === undefined ? '?' : new Date(ms).toISOString());

function connected(sid: string, info: SessionInfo, sign: Sign): HolderSign {
  const last = info.silentMs === undefined ? '?' : `${ago(info.silentMs)} before the server's latest answer`;
  const fact = `${sid}: client ${info.client}, last operation ${info.lop ?? '?'}, last answered ${last}, established ${iso(info.estMs)}, timeout ${info.timeoutMs / 1000} s`;
  const who = `${sid} (client ${info.client})`;
  if (info.silentMs === undefined) return sign('alive', `${who} is connected`, fact);
  const idle = info.silentMs;
  if (idle <= info.timeoutMs / 2)
    return sign(
      'alive',
      `${who} is connected and was last answered ${ago(idle)} before the server's latest answer (last operation ${info.lop ?? '?'})`,
      fact,
    );
  return sign(
    'stalled',
    `${who} has been silent for ${ago(idle)} (last operation ${info.lop ?? '?'}): its client is not pinging; the server ends the session, and its node, once its ${info.timeoutMs / 1000} s timeout passes`,
    fact,
  );
}

type Sign = (points: HolderSign['points'], says: string, fact: string) => HolderSign;

/** The sign of a lock's first holder (the node a release deletes by default), at `nowMs`. */
export function sessionSign(lock: ZkLock, sessions: Sessions | undefined, nowMs: number): HolderSign {
  const from = `cons on ${sessions?.asked?.join(', ') ?? 'no server (not asked)'}`;
  const sign: Sign = (points, says, fact) => ({ points, says, fact, from, at: new Date(nowMs).toISOString() });
  if (lock.lease) {
    const fact = `lease ends ${iso(lock.lease.endMs)} (the holder’s wall clock)`;
    const leaseFrom = (s: HolderSign) => ({ ...s, from: `${lock.path} (the lease's data)` });
    return leaseFrom(
      nowMs >= lock.lease.endMs
        ? {
            ...sign(
              'unknown',
              `its lease ended ${ago(nowMs - lock.lease.endMs)} ago: by kazoo’s rule the lock is free; ${RULE_IS_NOT_ABSENCE}`,
              fact,
            ),
            basis: 'rule',
          }
        : sign(
            'unknown',
            `kazoo’s lease writes no heartbeat: it holds until ${iso(lock.lease.endMs)} by its own rule; only ${lock.lease.holder} can say sooner`,
            fact,
          ),
    );
  }
  const owner = lock.holders[0]!.owner;
  if (owner === 0n)
    return sign(
      'unknown',
      'a persistent node has no session: it stays until deleted, and only its writer can say whether it still holds it',
      'ephemeralOwner 0',
    );
  const sid = `session ${sessionLabel(owner)}`;
  if (!sessions)
    return sign(
      'unknown',
      `${sid} was not looked up: reading cons on every server would settle it`,
      `ephemeralOwner ${sessionLabel(owner)}`,
    );
  const info = sessions.bySid.get(owner.toString(16));
  if (info) return connected(sid, info, sign);
  return absentSign(owner.toString(16), sessionLabel(owner), sessions, nowMs, sign);
}
