// A Lease's signs from one pass's evidence: its renewals (signs.ts renewalSign) and the Pod or Node its holder names
// (pod-sign.ts), read through the pass's shared lookups (an inspection's own, read now). Both weigh one reading of the
// Lease's quiet (cadence.ts): a missing or finished Pod says gone only once the Lease has stopped renewing, and a
// Lease that has stopped is never the renewal sign's alive, so a renewing holder is never gone for want of a Pod.
import type { HolderSign } from '../../verdict/verdict';
import { signsAt } from '../../verdict/sign';
import type { LeaseReading } from './formats';
import type { HolderLookups } from './holders';
import { podNameOf } from './holders';
import type { Lease } from './lease';
import { quietOf, type Renewals } from './cadence';
import { podSign } from './pod-sign';
import { renewalSign } from './signs';
import type { Observation } from './view';

export async function leaseSigns(
  l: Lease,
  r: LeaseReading,
  seen: Observation,
  now: number,
  lookups: HolderLookups | undefined,
  maxAgeMs = Infinity,
): Promise<HolderSign[]> {
  const sign = signsAt(now);
  const renewals: Renewals = {
    durationMs: r.durationMs,
    unchangedMs: now - seen.at,
    reads: seen.reads,
    ...(seen.renewedAt !== undefined ? { renewedAt: seen.renewedAt } : {}),
    ...(seen.cadenceMs !== undefined ? { cadenceMs: seen.cadenceMs } : {}),
  };
  const quiet = quietOf(renewals);
  const renewal = renewalSign(renewals, quiet, now, sign);
  const signs: HolderSign[] = renewal ? [renewal] : [];
  const podName = podNameOf(r.holder);
  if (!lookups || podName === undefined) return signs;
  const ns = l.metadata.namespace;
  const pods = await lookups.podsOf(ns, maxAgeMs, podName);
  // the Node the verdict reads: the Pod's, or (no such Pod) a hostNetwork holder's own
  const found = 'ok' in pods ? pods.ok.get(podName) : undefined;
  const nodeName = 'ok' in pods ? (found ? found.nodeName : podName) : undefined;
  const nodes = nodeName !== undefined ? await lookups.allNodes(maxAgeMs, nodeName) : undefined;
  const pod = podSign(r.holder, ns, { pods, nodes }, { r: renewals, q: quiet }, sign);
  return pod ? [...signs, pod] : signs;
}
