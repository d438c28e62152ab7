// Which holders keep believing they hold (or lead) after their node is deleted, and the sentence an operator must
// accept before Lockboard deletes it. Seen here on Debian's ZooKeeper 3.8 with Curator 5.4 and kazoo 2.8: with the
// holder's node deleted and its session alive, LeaderLatch/LeaderSelector `hasLeadership()`, InterProcessMutex and
// both read/write locks' `isAcquiredInThisProcess()`, kazoo Lock/ReadLock/WriteLock/Semaphore `is_acquired` all stayed
// true, and an Election's leader function kept running; no recipe watches its own node. A NonBlockingLease decides
// once, when taken (kazoo's lease.py). Only Lockboard's own holder watches its node and stops (its `signal`).
import type { ZkLock } from './read';
import type { ZkFormat } from './recipes';

const UNTIL = 'until its ZooKeeper session ends';
const FENCE = 'Stop or fence the old holder first.';

const TWO_LEADERS = `This is a leader election: deleting the leader’s node elects the next candidate at once, but the old leader is not told and keeps believing it leads ${UNTIL}, so there will be two leaders until then (Curator’s maintainers: a leader’s node should never be deleted). Stop or fence the old leader first.`;

/** An id-less Curator LeaderSelector runs an InterProcessMutex: the same names, the same data (the local address). */
const MAYBE_SELECTOR = `This node may be a Curator LeaderSelector leader: an InterProcessMutex and a LeaderSelector without an id write exactly this layout (_c_<uuid>-lock-<seq>, the local address as data), so no reader can tell them apart. Either way the old holder is not told: a mutex holder keeps believing it holds the lock, and a leader keeps leading, ${UNTIL}, so there will be two holders (or two leaders) until then. ${FENCE}`;

/** A kazoo Election is a kazoo Lock: the same names, the same data (the identifier). */
const MAYBE_ELECTION = `This node may be a kazoo Election leader: a kazoo Election is a kazoo Lock and writes exactly this layout (<uuid4 hex>__lock__<seq>, the identifier as data), so no reader can tell them apart. Either way the old holder is not told: a Lock holder keeps believing it holds (is_acquired stays true), and a leader keeps leading, ${UNTIL}, so there will be two holders (or two leaders) until then. ${FENCE}`;

const keepsHolding = (recipe: string, what: string) =>
  `The old holder is not told: a ${recipe} holder keeps believing it holds ${what} ${UNTIL} (its recipe never watches its own node), so there will be one holder too many until then. ${FENCE}`;

const LEASE =
  'The old holder is not told: a kazoo NonBlockingLease holder decided once, when it took the lease, and keeps acting until the end it wrote, so there will be two holders until then. Stop or fence the old holder first.';

const WORDS: Record<ZkFormat, string | null> = {
  lockboard: null, // Lockboard's holder watches its node: a deletion aborts its signal
  'curator-mutex': MAYBE_SELECTOR,
  'kazoo-lock': MAYBE_ELECTION,
  'curator-leader-latch': TWO_LEADERS,
  'curator-leader-selector': TWO_LEADERS,
  'curator-rwlock': keepsHolding('Curator InterProcessReadWriteLock', 'its read or write lock'),
  'kazoo-rwlock': keepsHolding('kazoo ReadLock/WriteLock', 'its read or write lock'),
  'curator-semaphore': keepsHolding('Curator InterProcessSemaphoreV2', 'its lease'),
  'kazoo-semaphore': keepsHolding('kazoo Semaphore', 'its lease'),
  'kazoo-lease': LEASE,
};

/** The sentence to accept before deleting this format's holder node, or null when its holder notices. */
export const notToldWords = (format: ZkFormat): string | null => WORDS[format];

/**
 * kazoo 2.8 (Debian 12's): a ReadLock waits for the last WriteLock node of the whole queue, even one queued after it,
 * and that writer waits for the reader (python-zk/kazoo#649; the fix upstream is #650). Seen here: a writer holding,
 * a reader then a writer waiting; once the holder's node was gone, neither waiter ever held.
 */
export const KAZOO_649 =
  'kazoo 2.8 (Debian 12’s) and other releases without the fix for python-zk/kazoo#649 deadlock here: a reader queued ahead of a writer waits for that later writer, which waits for the reader, so a reader shown holding may be stuck waiting.';

/** A kazoo read/write queue with a reader ahead of a writer: the layout kazoo#649 deadlocks. */
export function kazooReaderBeforeWriter(lock: Pick<ZkLock, 'format' | 'holders' | 'waiters'>): boolean {
  if (lock.format !== 'kazoo-rwlock') return false;
  const all = [...lock.holders, ...lock.waiters];
  return all.some((r) => r.shared && all.some((w) => !w.shared && w.seq > r.seq));
}
