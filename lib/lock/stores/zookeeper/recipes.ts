// The recipes' node names (facts-coordination Part B §3.2), as pure logic: which recipe a child of a lock parent
// belongs to, its 10-digit sequence, and who holds and who waits. Order is always the sequence, never the name: a
// Curator node starts with a random `_c_<uuid>`, a kazoo node with a random uuid4 hex.
import type { LockFormat } from '../../types';

type Marker = 'lock' | 'latch' | 'write' | 'read' | 'lease' | 'kazoo-lock' | 'kazoo-read';

interface RecipeNode {
  name: string;
  marker: Marker;
  /** The 10-digit sequence suffix, as written. */
  seq: string;
  /** Holds beside other shared nodes (a read lock); an exclusive node holds only when first. */
  shared: boolean;
}

const CURATOR = /^_c_[0-9a-f-]{36}-(lock-|latch-|__WRIT__|__READ__|lease-)(\d{10})$/;
const KAZOO = /^[0-9a-f]{32}(__lock__|__rlock__)(\d{10})$/;
const CURATOR_MARKERS: Record<string, Marker> = {
  'lock-': 'lock',
  'latch-': 'latch',
  __WRIT__: 'write',
  __READ__: 'read',
  'lease-': 'lease',
};

/** A recipe's sequential node, or null for any other name. */
export function recipeNode(name: string): RecipeNode | null {
  const c = CURATOR.exec(name);
  if (c) {
    const marker = CURATOR_MARKERS[c[1]!]!;
    return { name, marker, seq: c[2]!, shared: marker === 'read' || marker === 'lease' };
  }
  const k = KAZOO.exec(name);
  if (k) {
    const marker: Marker = k[1] === '__rlock__' ? 'kazoo-read' : 'kazoo-lock';
    return { name, marker, seq: k[2]!, shared: marker === 'kazoo-read' };
  }
  return null;
}

/** A kazoo Semaphore lease: a uuid4 hex, ephemeral and not sequential. */
export const isKazooLease = (name: string): boolean => /^[0-9a-f]{32}$/.test(name);

/** In grant order: by the sequence suffix (never by name). */
export function bySequence<T extends { seq: string }>(nodes: T[]): T[] {
  return [...nodes].sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
}

/**
 * Holders and waiters of one queue: an exclusive node holds when it is first; shared nodes hold while no exclusive
 * node is ahead of them (Curator's and kazoo's read/write locks). Everyone else waits, in sequence order.
 */
export function splitQueue<T extends { seq: string; shared: boolean }>(nodes: T[]): { holders: T[]; waiters: T[] } {
  const ordered = bySequence(nodes);
  const holders: T[] = [];
  for (const n of ordered) {
    if (n.shared ? holders.every((h) => h.shared) : holders.length === 0) holders.push(n);
    else break;
  }
  return { holders, waiters: ordered.slice(holders.length) };
}

/** The formats ZooKeeper's recipes write (their ids are in the one union of formats). */
export type ZkFormat = Extract<LockFormat, 'lockboard' | `curator-${string}` | `kazoo-${string}`>;

/** The recipe a parent's sequential children make. */
export function formatOf(nodes: RecipeNode[]): ZkFormat {
  const has = (m: Marker) => nodes.some((n) => n.marker === m);
  if (has('latch')) return 'curator-leader-latch';
  if (has('write') || has('read')) return 'curator-rwlock';
  if (has('kazoo-read')) return 'kazoo-rwlock';
  if (has('kazoo-lock')) return 'kazoo-lock';
  return 'curator-mutex';
}

export const FORMAT_LABELS: Record<ZkFormat, string> = {
  lockboard: 'Lockboard (kazoo Lock layout)',
  'curator-mutex': 'Curator InterProcessMutex, or a LeaderSelector without an id (the same layout)',
  'curator-rwlock': 'Curator InterProcessReadWriteLock',
  'curator-semaphore': 'Curator InterProcessSemaphoreV2 / SemaphoreMutex',
  'curator-leader-latch': 'Curator LeaderLatch (leader election)',
  'curator-leader-selector': 'Curator LeaderSelector (leader election)',
  'kazoo-lock': 'kazoo Lock, or a kazoo Election (the same layout)',
  'kazoo-rwlock': 'kazoo ReadLock / WriteLock',
  'kazoo-semaphore': 'kazoo Semaphore',
  'kazoo-lease': 'kazoo NonBlockingLease',
};

/**
 * A Curator `-lock-` node's data: InterProcessMutex writes the framework's default, the local address; a LeaderSelector
 * writes its participant id when it has one. Anything but an address is a selector's id.
 */
export const isSelectorId = (data: Buffer): boolean => {
  const text = data.toString('utf8');
  return text.length > 0 && !/^(\d{1,3}\.){3}\d{1,3}$|^[0-9a-f:]+$/i.test(text);
};
