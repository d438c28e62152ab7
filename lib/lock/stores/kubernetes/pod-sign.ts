// What the Pod a Lease's holder names says (docs/verdict.md "The reach of evidence"): client-go's identity is a
// hostname, which names a Pod in the Lease's namespace only for an in-cluster leader without spec.hostname, hostNetwork
// or a name over 63 characters, electing in its own namespace. So a Pod of that name absent, or finished, is gone only
// once the Lease has stopped renewing too (cadence.ts); before that it is unknown, naming the blind spot and what
// settles it. A Pod being deleted still runs until its grace period ends: unknown, never gone. Its Node not Ready →
// stalled; running → alive. A Pod list refused → unknown naming the grant. Every sentence names the namespace looked
// in.
import type { HolderSign } from '../../verdict/verdict';
import { absent, type SignMaker as Sign } from '../../verdict/sign';
import { quietWords, type Quiet, type Renewals } from './cadence';
import type { Looked, NodeFacts, PodFacts } from './holders';
import { podNameOf } from './holders';

/** Why a Pod missing (or finished) is not yet proof: the identity may name no Pod of this namespace. */
const MAY_NOT_BE_A_POD =
  'its identity may not be a Pod name here (a leader outside the cluster, spec.hostname, a hostname cut at 63 ' +
  'characters, hostNetwork, or a leader electing from another namespace)';

/** A Pod absent or finished: gone once the Lease has stopped renewing too (cadence.ts), else unknown naming why. */
function unlessRenewing(what: string, fact: string, from: string, r: Renewals, q: Quiet, sign: Sign): HolderSign {
  const quiet = quietWords(r, q);
  if (q.stopped) return absent(sign('gone', `${what}, and ${quiet}`, `${fact}; Lease unchanged past its bound`, from));
  return sign('unknown', `${what}, but ${MAY_NOT_BE_A_POD}; ${quiet}`, fact, from, q.settleMs);
}

/** The Pod (or, for a hostNetwork holder, the Node) that `holder` names in `namespace`. */
export function podSign(
  holder: string,
  namespace: string,
  looked: { pods: Looked<PodFacts>; nodes: Looked<NodeFacts> | undefined },
  renewals: { r: Renewals; q: Quiet },
  sign: Sign,
): HolderSign | undefined {
  const name = podNameOf(holder);
  if (name === undefined) return undefined;
  const { pods, nodes } = looked;
  const { r, q } = renewals;
  if ('forbidden' in pods)
    return sign(
      'unknown',
      `the Pod ${name} in namespace ${namespace} cannot be looked up: grant this identity get,list on pods in ${namespace} (deploy/kubernetes/holder-access.yaml.example) to settle it`,
      `403 listing ${pods.forbidden}`,
      `Pods in ${namespace}`,
    );
  const pod = pods.ok.get(name);
  const nodeOf = (n: string | undefined) => (n && nodes && 'ok' in nodes ? nodes.ok.get(n) : undefined);
  if (!pod) {
    const node = nodeOf(name);
    if (node) return nodeSign(node, `the Node ${name} (a hostNetwork holder)`, sign);
    return noPodSign(name, namespace, nodes !== undefined && 'forbidden' in nodes, renewals, sign);
  }
  const its = `its Pod ${name} in namespace ${namespace}`;
  const from = `Pod ${namespace}/${name}`;
  if (pod.deleting) return deletingSign(pod, its, from, sign);
  if (pod.phase === 'Succeeded' || pod.phase === 'Failed')
    return unlessRenewing(`${its} has finished (${pod.phase})`, `phase ${pod.phase}`, from, r, q, sign);
  const node = nodeOf(pod.nodeName);
  if (node && node.ready !== 'True') return nodeSign(node, `the Node ${node.name} of ${its}`, sign);
  return sign(
    'alive',
    `${its} is ${pod.phase ?? 'there'}`,
    `phase ${pod.phase ?? 'unset'}${pod.nodeName ? `, node ${pod.nodeName}` : ''}`,
    from,
  );
}

/** No Pod of the name in the namespace (nor a Node, where Nodes may be listed): gone only once the Lease stopped. */
function noPodSign(
  name: string,
  namespace: string,
  nodesHidden: boolean,
  renewals: { r: Renewals; q: Quiet },
  sign: Sign,
) {
  const noNode = nodesHidden
    ? 'a Node of that name unchecked: this identity may not list nodes'
    : 'nor a Node of that name';
  const what = `no Pod named ${name} in namespace ${namespace} (${noNode})`;
  return unlessRenewing(what, `Pod ${name} absent`, `Pods in ${namespace}`, renewals.r, renewals.q, sign);
}

/** A Pod with a deletionTimestamp: its containers run until the grace period ends (the timestamp), then it goes. */
function deletingSign(pod: PodFacts, its: string, from: string, sign: Sign): HolderSign {
  const period = pod.graceSeconds !== undefined ? `its ${pod.graceSeconds} s grace period` : 'its grace period';
  return sign(
    'unknown',
    `${its} is being deleted (${period} ends at ${pod.deleting}): it runs until its containers stop, so it is not gone; a read once the Pod is removed settles it`,
    `deletionTimestamp ${pod.deleting}${pod.graceSeconds !== undefined ? `, grace ${pod.graceSeconds} s` : ''}`,
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
