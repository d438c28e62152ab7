// What a Lease's renewals say of its holder (docs/verdict.md): renewTime seen to move within the bound of
// cadence.ts (five of the renewal intervals seen plus 2 s, or its lease) → alive; renewals seen, then none past that
// bound → unknown until its lease runs out; unchanged past leaseDurationSeconds → unknown by the Lease's own rule (its
// health says expired: client-go candidates take it over, but that is no evidence its holder is gone); seen once →
// unknown with one duration to wait. The Pod its holder names is pod-sign.ts's.
import type { HolderSign } from '../../verdict/verdict';
import { byRule, RULE_IS_NOT_ABSENCE, seconds as secs, type SignMaker as Sign } from '../../verdict/sign';
import type { Quiet, Renewals } from './cadence';

const upTo = (ms: number) => Math.ceil((ms + 1000) / 1000) * 1000;

export function renewalSign(r: Renewals, q: Quiet, now: number, sign: Sign): HolderSign | undefined {
  const d = r.durationMs;
  if (d === undefined) return undefined;
  const from = r.reads > 1 ? 'Lease renewTime, two reads' : 'Lease renewTime';
  const every = r.cadenceMs !== undefined ? `; renewed every ${secs(r.cadenceMs)} or less` : '';
  const fact = `unchanged for ${secs(r.unchangedMs)}; leaseDurationSeconds ${d / 1000}${every}`;
  if (r.unchangedMs > d)
    return byRule(
      sign(
        'unknown',
        `not renewed for ${secs(r.unchangedMs)}, past its ${secs(d)} lease: client-go candidates take it over; ${RULE_IS_NOT_ABSENCE}`,
        fact,
        from,
      ),
    );
  if (r.renewedAt !== undefined && q.boundMs !== undefined && now - r.renewedAt <= q.boundMs)
    return sign(
      'alive',
      `its renewTime moved between two reads, ${secs(now - r.renewedAt)} ago, within ${q.bound}`,
      fact,
      from,
    );
  const settle = upTo(d - r.unchangedMs);
  const says = q.stopped
    ? `its renewals stopped: unchanged for ${secs(r.unchangedMs)}, past ${q.bound}; its ${secs(d)} lease runs out in ${secs(d - r.unchangedMs)}`
    : r.reads > 1
      ? `not renewed in ${secs(r.unchangedMs)} of its ${secs(d)} lease; a read after ${secs(settle)} settles it`
      : `seen once: a ${secs(d)} lease is judged by two reads; a second read after ${secs(settle)} settles it`;
  return sign('unknown', says, fact, from, settle);
}
