// A Lease's signs from one pass's evidence: its renewals (signs.ts renewalSign) and the Pod or Node its holder names
// (podSign), read through the pass's shared lookups (an inspection's own, read now). A renewal seen proves a live
// renewer: a Pod that is absent or finished then is not the whole story, so it points to unknown instead of gone.
import type { HolderSign } from '../../verdict/verdict';
import { signsAt } from '../../verdict/sign';
import type { LeaseReading } from './formats';
import type { HolderLookups } from './holders';
import { podNameOf } from './holders';
import type { Lease } from './lease';
import { podSign, renewalSign } from './signs';
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
  const renewal = renewalSign(
    { durationMs: r.durationMs, unchangedMs: now - seen.at, renewedAt: seen.renewedAt, reads: seen.reads },
    now,
    sign,
  );
  const signs: HolderSign[] = renewal ? [renewal] : [];
  const podName = podNameOf(r.holder);
  if (!lookups || podName === undefined) return signs;
  const ns = l.metadata.namespace;
  const pods = await lookups.podsOf(ns, maxAgeMs, podName);
  // the Node the verdict reads: the Pod's, or (no such Pod) a hostNetwork holder's own
  const found = 'ok' in pods ? pods.ok.get(podName) : undefined;
  const nodeName = 'ok' in pods ? (found ? found.nodeName : podName) : undefined;
  const nodes = nodeName !== undefined ? await lookups.allNodes(maxAgeMs, nodeName) : undefined;
  const pod = podSign(r.holder, ns, pods, nodes, sign);
  if (!pod) return signs;
  const outlived = renewal?.points === 'alive' && pod.points === 'gone';
  return [...signs, outlived ? { ...pod, points: 'unknown', says: `${pod.says}, yet the Lease is renewed` } : pod];
}
