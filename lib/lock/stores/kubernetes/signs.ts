// What a Lease says of its holder (stores.md "Verdict"): its renewals against leaseDurationSeconds (renewTime seen to
// move within its duration → alive; unchanged past it → gone by the Lease's rule, as client-go candidates judge; seen
// once → unknown with one duration to wait), and the Pod its holderIdentity names: absent, Succeeded/Failed or
// deleting → gone; its Node not Ready → stalled; running → alive. A Pod list refused → unknown naming the grant.
import type { HolderSign } from '../../verdict/verdict';
import { absent, byRule, RULE_IS_NOT_ABSENCE, seconds as secs, type SignMaker as Sign } from '../../verdict/sign';
import type { Looked, NodeFacts, PodFacts } from './holders';
import { podNameOf } from './holders';

export interface Renewals {
  durationMs?: number;
  /** How long the Lease has been seen unchanged (this store's clock). */
  unchangedMs: number;
  /** When its renewTime was last seen to move (this store's clock), if ever. */
  renewedAt?: number;
  reads: number;
}

export function renewalSign(r: Renewals, now: number, sign: Sign): HolderSign | undefined {
  const d = r.durationMs;
  if (d === undefined) return undefined;
  const from = r.reads > 1 ? 'Lease renewTime, two reads' : 'Lease renewTime';
  const fact = `unchanged for ${secs(r.unchangedMs)}; leaseDurationSeconds ${d / 1000}`;
  if (r.unchangedMs > d)
    return byRule(
      sign(
        'unknown',
        `not renewed for ${secs(r.unchangedMs)}, past its ${secs(d)} lease: client-go candidates take it over; ${RULE_IS_NOT_ABSENCE}`,
        fact,
        from,
      ),
    );
  if (r.renewedAt !== undefined && now - r.renewedAt <= d)
    return sign(
      'alive',
      `its renewTime moved between two reads, ${secs(now - r.renewedAt)} ago, within its ${secs(d)} lease`,
      fact,
      from,
    );
  const settle = Math.ceil((d - r.unchangedMs + 1000) / 1000) * 1000;
  const says =
    r.reads > 1
      ? `not renewed in ${secs(r.unchangedMs)} of its ${secs(d)} lease; a read after ${secs(settle)} settles it`
      : `seen once: a ${secs(d)} lease is judged by two reads; a second read after ${secs(settle)} settles it`;
  return sign('unknown', says, fact, from, settle);
}

/** The Pod (or, for a hostNetwork holder, the Node) that `holder` names in `namespace`. */
export function podSign(
  holder: string,
  namespace: string,
  pods: Looked<PodFacts>,
  nodes: Looked<NodeFacts> | undefined,
  sign: Sign,
): HolderSign | undefined {
  const name = podNameOf(holder);
  if (name === undefined) return undefined;
  if ('forbidden' in pods)
    return sign(
      'unknown',
      `the Pod ${namespace}/${name} cannot be looked up: grant this identity get,list on pods in ${namespace} (deploy/kubernetes/holder-access.yaml.example) to settle it`,
      `403 listing ${pods.forbidden}`,
      `Pods in ${namespace}`,
    );
  const pod = pods.ok.get(name);
  const nodeOf = (n: string | undefined) => (n && nodes && 'ok' in nodes ? nodes.ok.get(n) : undefined);
  if (!pod) {
    const node = nodeOf(name);
    if (node) return nodeSign(node, `the Node ${name} (a hostNetwork holder)`, sign);
    return absent(
      sign(
        'gone',
        `no Pod ${namespace}/${name} exists (nor a Node of that name)`,
        `Pod ${name} absent`,
        `Pods in ${namespace}`,
      ),
    );
  }
  const from = `Pod ${namespace}/${name}`;
  if (pod.deleting)
    return absent(
      sign(
        'gone',
        `its Pod ${namespace}/${name} is being deleted (since ${pod.deleting})`,
        `deletionTimestamp ${pod.deleting}`,
        from,
      ),
    );
  if (pod.phase === 'Succeeded' || pod.phase === 'Failed')
    return absent(sign('gone', `its Pod ${namespace}/${name} has finished (${pod.phase})`, `phase ${pod.phase}`, from));
  const node = nodeOf(pod.nodeName);
  if (node && node.ready !== 'True') return nodeSign(node, `its Pod ${namespace}/${name}'s Node ${node.name}`, sign);
  return sign(
    'alive',
    `its Pod ${namespace}/${name} is ${pod.phase ?? 'there'}`,
    `phase ${pod.phase ?? 'unset'}${pod.nodeName ? `, node ${pod.nodeName}` : ''}`,
    from,
  );
}

function nodeSign(node: NodeFacts, what: string, sign: Sign): HolderSign {
  const fact = `Node ${node.name} Ready=${node.ready ?? 'unset'}`;
  if (node.ready === 'True') return sign('alive', `${what} is Ready`, fact, `Node ${node.name}`);
  return sign(
    'stalled',
    `${what} is not Ready (${node.ready ?? 'no Ready condition'}): the holder cannot progress`,
    fact,
    `Node ${node.name}`,
  );
}
