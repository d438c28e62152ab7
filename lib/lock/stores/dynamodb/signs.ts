// What a DynamoDB lock says of its holder beyond one read (stores.md "Verdict"), by each format's own rule: the
// lock-client family's recordVersionNumber changed between two reads (a heartbeat: alive) or unchanged for longer than
// its lease (expired, as the clients themselves judge it: a rule, not evidence of absence); seen once, a second read one lease later settles it.
// Lockboard's own item expires at the time it names on the service's clock. Terraform's item and FailClosed items
// have no heartbeat: unknown, saying what would settle it.
import { byRule, RULE_IS_NOT_ABSENCE } from '../../verdict/sign';
import type { HolderSign } from '../../verdict/verdict';
import type { DynamoReading } from './formats';

/** What the store remembers of one (name, version) across reads. */
export interface Sighting {
  /** How long this version has been seen unchanged (local monotonic clock), ms. */
  unchangedMs: number;
  /** The version replaced one of the same owner seen before: a heartbeat was seen. */
  renewed: boolean;
  /** Seen by an earlier read too. */
  seenBefore: boolean;
}

const secs = (ms: number) => `${Math.round(ms / 1000)} s`;

export function dynamoSigns(r: DynamoReading, s: Sighting, now: number): HolderSign[] {
  if (r.released) return [];
  const at = new Date(now).toISOString();
  const rvn = 'recordVersionNumber';
  const sign = (points: HolderSign['points'], says: string, fact: string, settleMs?: number): HolderSign => ({
    points,
    says,
    fact,
    from: r.format === 'terraform' ? 'the Info attribute' : `two reads of ${rvn}`,
    at,
    ...(settleMs ? { settleMs } : {}),
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
  if (r.leaseMs === undefined)
    return [
      sign(
        'unknown',
        'no lease and no heartbeat (FailClosed): nothing in the table shows whether its owner still runs; its owner settles it',
        `${rvn} ${s.seenBefore ? `unchanged for ${secs(s.unchangedMs)}` : 'seen once'}, no leaseDuration`,
      ),
    ];
  const lease = r.leaseMs;
  if (s.unchangedMs > lease)
    return [
      byRule(
        sign(
          'unknown',
          `its ${rvn} stayed the same for ${secs(s.unchangedMs)}, longer than its ${secs(lease)} lease: the lock clients take it over by this rule; ${RULE_IS_NOT_ABSENCE}`,
          `${rvn} unchanged for ${secs(s.unchangedMs)}, lease ${secs(lease)}`,
        ),
      ),
    ];
  if (s.renewed)
    return [
      sign(
        'alive',
        `its ${rvn} changed between two reads, ${secs(s.unchangedMs)} ago, within its ${secs(lease)} lease: its holder heartbeats`,
        `${rvn} changed (same owner), unchanged since for ${secs(s.unchangedMs)}, lease ${secs(lease)}`,
      ),
    ];
  const settle = lease - s.unchangedMs + 1000;
  return [
    sign(
      'unknown',
      s.seenBefore
        ? `its ${rvn} has not changed in ${secs(s.unchangedMs)} of its ${secs(lease)} lease; a read after ${secs(settle)} more settles it`
        : `seen once: a lease of ${secs(lease)} is judged by two reads; a second read after ${secs(settle)} settles it`,
      `${rvn} ${s.seenBefore ? `unchanged for ${secs(s.unchangedMs)}` : 'seen once'}, lease ${secs(lease)}`,
      settle,
    ),
  ];
}

type Sign = (points: HolderSign['points'], says: string, fact: string, settleMs?: number) => HolderSign;

/** Lockboard's own item: its expiresAt on the service's clock, and a refresh seen between two reads. */
function lockboardSigns(r: DynamoReading, s: Sighting, now: number, sign: Sign): HolderSign[] {
  const left = r.expiresAtMs! - now;
  const fact = `expiresAt ${new Date(r.expiresAtMs!).toISOString()} (service clock)`;
  if (left <= 0)
    return [
      byRule(
        sign('unknown', `its expiresAt passed ${secs(-left)} ago on the service's clock; ${RULE_IS_NOT_ABSENCE}`, fact),
      ),
    ];
  if (s.renewed) return [sign('alive', `its holder refreshed it between two reads (expires in ${secs(left)})`, fact)];
  const settle = left + 1000;
  return [
    sign(
      'unknown',
      `seen ${s.seenBefore ? 'unrefreshed so far' : 'once'}: it expires in ${secs(left)} unless refreshed; a read after ${secs(settle)} settles it`,
      fact,
      settle,
    ),
  ];
}
