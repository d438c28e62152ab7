// ZooKeeper's words: a node, its session, its sequence; a recipe's holder is never told of a release (not-told.ts says
// what each keeps believing), so those releases need the sentence accepted; Lockboard's own holder watches its node.
import type { StoreTerms } from '../../store';
import { EPHEMERAL_WORDS, PERSISTENT_WORDS } from './health-words';

/** `notTold`: the sentence a release must accept (not-told.ts), null when the holder notices its node deleted. */
export function zookeeperTerms(o: { notTold: string | null; reusedNames: boolean; ephemeral: boolean }): StoreTerms {
  return {
    storeLabel: 'ZooKeeper',
    versionName: 'node czxid + data version',
    since: 'Held since',
    updated: 'Last write',
    liveness: o.ephemeral
      ? 'The node is ephemeral: it lives exactly as long as its owner’s session, which the client keeps alive with heartbeats.'
      : 'The node is persistent: it outlives its session and ends only at the end time its recipe wrote, or when deleted.',
    effect:
      o.notTold ??
      'Clearing deletes the holder’s node and the next contender in the queue takes it at once; Lockboard’s own holder watches its node and stops at once (its lock’s signal is aborted).',
    rule: o.reusedNames
      ? 'ZooKeeper rule: one multi(check(node, version), delete(node, version)) of exactly the node you see. This node is not sequential: a re-created one restarts at version 0, so its czxid is re-read just before the multi; a node re-created in between could still be hit (a weaker pin than a sequential node’s).'
      : 'ZooKeeper rule: one multi(check(node, version), delete(node, version)) of exactly the holder node you see. Sequential names are never reused, so a successor’s node is never touched; waiters are never deleted.',
    trail:
      'Force-releases and Lockboard’s own ZooKeeper holders are recorded under the source’s .lockboard/audit node; Curator and kazoo record nothing.',
    ...(o.notTold ? { confirmByName: true, twoLeaders: o.notTold } : {}),
    health: o.ephemeral ? EPHEMERAL_WORDS : PERSISTENT_WORDS,
  };
}
