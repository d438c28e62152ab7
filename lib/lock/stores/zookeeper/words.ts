// ZooKeeper's words and truth table: a node, its session, its sequence. An ephemeral node lives exactly as long as its
// owner's session (its client heartbeats); a persistent node with an end time (a lease recipe) holds until that time.
// A recipe's holder is never told of a release (not-told.ts says what each keeps believing), so those releases need
// the sentence accepted; Lockboard's own holder watches its node.
import type { StoreTerms } from '../../store';
import type { HealthWords } from '../../types';

const EPHEMERAL_WORDS: HealthWords = {
  meaning: {
    healthy: 'Held: the holder’s ephemeral node exists, so its session is open (its client heartbeats).',
    'long-held': 'Held longer than the configured limit; the holder’s session is still open.',
  },
  changes: {
    healthy: 'It ends when the holder deletes its node or its session ends (ZooKeeper then deletes the node).',
    'long-held': 'It ends when the holder deletes its node or its session ends (ZooKeeper then deletes the node).',
  },
  advice: {
    healthy: 'Only if you know its holder must stop: its session is open, and it is not told of the release.',
    'long-held': 'Only if you know its job is stuck: its session is open, and it is not told of the release.',
  },
};

const PERSISTENT_WORDS: HealthWords = {
  meaning: {
    healthy: 'Held until the end time its recipe wrote.',
    expired: 'Past the end time its recipe wrote: the next contender may take it.',
    'long-held': 'Held longer than the configured limit; its end time has not passed.',
  },
  changes: {
    healthy: 'It ends at the end time its recipe wrote, or when its node is deleted.',
    expired: 'It stays until the next contender takes it or an operator clears it.',
  },
  advice: { expired: 'Yes: its end time has passed.' },
};

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
