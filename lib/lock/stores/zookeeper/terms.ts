// ZooKeeper's words: a node, its session, its sequence; the holder is never told of a release, and an election's old
// leader keeps leading until its session ends (facts-coordination Part B §3.4).
import type { StoreTerms } from '../../store';
import { EPHEMERAL_WORDS, PERSISTENT_WORDS } from './health-words';

export const TWO_LEADERS =
  'This is a leader election: deleting the leader’s node elects the next candidate at once, but the old leader is not told and keeps believing it leads until its ZooKeeper session ends, so there will be two leaders until then (Curator’s maintainers: a leader’s node should never be deleted). Stop or fence the old leader first.';

export function zookeeperTerms(o: { election: boolean; reusedNames: boolean; ephemeral: boolean }): StoreTerms {
  return {
    storeLabel: 'ZooKeeper',
    versionName: 'node czxid + data version',
    since: 'Held since',
    updated: 'Last write',
    liveness: o.ephemeral
      ? 'The node is ephemeral: it lives exactly as long as its owner’s session, which the client keeps alive with heartbeats.'
      : 'The node is persistent: it outlives its session and ends only at the end time its recipe wrote, or when deleted.',
    effect: o.election
      ? TWO_LEADERS
      : 'Clearing deletes the holder’s node and the next contender in the queue takes it at once; the old holder is not told and keeps believing it holds the lock until it checks or its session ends.',
    rule: o.reusedNames
      ? 'ZooKeeper rule: one multi(check(node, version), delete(node, version)) of exactly the node you see. This node is not sequential: a re-created one restarts at version 0, so its czxid is re-read just before the multi; a node re-created in between could still be hit (a weaker pin than a sequential node’s).'
      : 'ZooKeeper rule: one multi(check(node, version), delete(node, version)) of exactly the holder node you see. Sequential names are never reused, so a successor’s node is never touched; waiters are never deleted.',
    trail:
      'Force-releases and Lockboard’s own ZooKeeper holders are recorded under the source’s .lockboard/audit node; Curator and kazoo record nothing.',
    ...(o.election ? { confirmByName: true, twoLeaders: TWO_LEADERS } : {}),
    health: o.ephemeral ? EPHEMERAL_WORDS : PERSISTENT_WORDS,
  };
}
