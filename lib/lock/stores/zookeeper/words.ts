// ZooKeeper's truth table: an ephemeral node lives exactly as long as its owner's session (its client heartbeats);
// a persistent node with an end time (a lease recipe) holds until that time.
import type { HealthWords } from '../../types';

export const EPHEMERAL_WORDS: HealthWords = {
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

export const PERSISTENT_WORDS: HealthWords = {
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
