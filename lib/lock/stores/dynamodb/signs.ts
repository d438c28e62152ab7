// What a DynamoDB lock says of its holder beyond one read (stores.md "Verdict"), by each format's own rule: the
// lock-client family's recordVersionNumber changed between two reads (a heartbeat: alive) or unchanged for longer than
// its lease (expired, as the clients themselves judge it: a rule, not evidence of absence); seen once, a second read one lease later settles it.
// Lockboard's own item expires at the time it names on the service's clock. Terraform's item and FailClosed items
// have no heartbeat: unknown, saying what would settle it. Figures that move are marks (verdict/figures.ts), filled
// from the view's times: its updatedAt is when this version was first seen (SINCE: how long it has been unchanged),
// its expiresAt the lease's end or the item's expiresAt (LEFT, PAST, SETTLE: a read a second after it settles it).
import { EXPIRY, LEFT, PAST, SETTLE, SINCE } from '../../verdict/figures';
import { byRule, RULE_IS_NOT_ABSENCE } from '../../verdict/sign';
import type { HolderSign } from '../../verdict/verdict';
import type { DynamoReading } from './formats';

/** What the store remembers of one (name, version) across reads. */
interface Sighting {
  /** How long this version has been seen unchanged (local monotonic clock), ms. */
  unchangedMs: number;
  /** The version replaced one of the same owner seen before: a heartbeat was seen. */
  renewed: boolean;
  /** Seen by an earlier read too. */
  seenBefore: boolean;
}

const secs = (ms: number) => `${Math.round(ms / 1000)} s`;

type Sign = (points: HolderSign['points'], says: string, fact: string, settles?: true) => HolderSign;

export function dynamoSigns(r: DynamoReading, s: Sighting, now: number): HolderSign[] {
  if (r.released) return [];
  const at = new Date(now).toISOString();
  const rvn = 'recordVersionNumber';
  const from = r.format === 'terraform' ? 'the Info attribute' : `two reads of ${rvn}`;
  // a judgement a second read settles: a read a second after the lease's end (or the item's expiresAt)
  const sign: Sign = (points, says, fact, settles) => ({
    points,
    says,
    fact,
    from,
    at,
    ...(settles ? { settleAfterExpiryMs: 1000 } : {}),
  });
  if (r.format === 'terraform')
    return [
      sign(
        'unknown',
        `Terraform's lock item has no heartbeat; only ${r.identity ? `its Who (${r.identity})` : 'its run'} can say whether the apply still runs (its CI job or that host settles it)`,
        `Info: ${r.identity ?? 'no Who'}, ${r.purpose ?? 'no operation'}`,
      ),
    ];
  if (r.expiresAtMs !== undefined) return lockboardSigns(r, s, now, sign);
  const unchanged = s.seenBefore ? `unchanged for ${SINCE}` : 'seen once';
  if (r.leaseMs === undefined)
    return [
      sign(
        'unknown',
        'no lease and no heartbeat (FailClosed): nothing in the table shows whether its owner still runs; its owner settles it',
        `${rvn} ${unchanged}, no leaseDuration`,
      ),
    ];
  const lease = secs(r.leaseMs);
  if (s.unchangedMs > r.leaseMs)
    return [
      byRule(
        sign(
          'unknown',
          `its ${rvn} stayed the same for ${SINCE}, longer than its ${lease} lease: the lock clients take it over by this rule; ${RULE_IS_NOT_ABSENCE}`,
          `${rvn} unchanged for ${SINCE}, lease ${lease}`,
        ),
      ),
    ];
  if (s.renewed)
    return [
      sign(
        'alive',
        `its ${rvn} changed between two reads, ${SINCE} ago, within its ${lease} lease: its holder heartbeats`,
        `${rvn} changed (same owner), unchanged since for ${SINCE}, lease ${lease}`,
      ),
    ];
  return [
    sign(
      'unknown',
      s.seenBefore
        ? `its ${rvn} has not changed in ${SINCE} of its ${lease} lease; a read after ${SETTLE} more settles it`
        : `seen once: a lease of ${lease} is judged by two reads; a second read after ${SETTLE} settles it`,
      `${rvn} ${unchanged}, lease ${lease}`,
      true,
    ),
  ];
}

/** Lockboard's own item: its expiresAt on the service's clock, and a refresh seen between two reads. */
function lockboardSigns(r: DynamoReading, s: Sighting, now: number, sign: Sign): HolderSign[] {
  const fact = `expiresAt ${EXPIRY} (service clock)`;
  if (r.expiresAtMs! <= now)
    return [
      byRule(sign('unknown', `its expiresAt passed ${PAST} ago on the service's clock; ${RULE_IS_NOT_ABSENCE}`, fact)),
    ];
  if (s.renewed) return [sign('alive', `its holder refreshed it between two reads (expires in ${LEFT})`, fact)];
  return [
    sign(
      'unknown',
      `seen ${s.seenBefore ? 'unrefreshed so far' : 'once'}: it expires in ${LEFT} unless refreshed; a read after ${SETTLE} settles it`,
      fact,
      true,
    ),
  ];
}
