// Reading one logical lock: the recipe's nodes, one getData each (data and Stat in one request), grouped as the recipe
// groups them (`<p>/leases` + `<p>/locks`, `<p>` + `<p>-__lock__`), holders and waiters in sequence order.
import { isUnreachable, long, type ZkConn, type ZNode } from './conn';
import { bySequence, formatOf, isKazooLease, isSelectorId, recipeNode, splitQueue, type ZkFormat } from './recipes';
import { joinPath } from './source';

export interface Contender {
  node: ZNode;
  /** The sequence suffix ('' for a non-sequential node). */
  seq: string;
  shared: boolean;
  /** Session id (ephemeralOwner), 0 for a persistent node. */
  owner: bigint;
}

export interface ZkLock {
  path: string;
  format: ZkFormat;
  holders: Contender[];
  waiters: Contender[];
  /** Holder nodes are not sequential: a re-created node cannot be told apart by its name. */
  reusedNames: boolean;
  /** kazoo NonBlockingLease: its holder and wall-clock end (naive UTC). */
  lease?: { holder: string; endMs: number };
  /** Semaphores: the maximum stored with the lock (kazoo), when stored. */
  maxLeases?: string;
}

/** The names in a parent's listing that belong to a lock other than the parent's own queue. */
interface Layout {
  kind: 'queue' | 'curator-semaphore' | 'kazoo-semaphore' | 'kazoo-lease' | 'none';
}

async function readNodes(conn: ZkConn, parent: string, names: string[]): Promise<ZNode[]> {
  const nodes = await Promise.all(names.map((n) => conn.read(joinPath(parent, n))));
  return nodes.filter((n): n is ZNode => n !== null); // gone between the listing and the read
}

async function queueOf(conn: ZkConn, parent: string, names: string[]): Promise<Contender[]> {
  const byName = new Map(names.map((n) => [n, recipeNode(n)] as const));
  const nodes = await readNodes(
    conn,
    parent,
    [...byName].filter(([, r]) => r).map(([n]) => n),
  );
  return nodes.map((node) => {
    const r = byName.get(node.path.slice(node.path.lastIndexOf('/') + 1))!;
    return { node, seq: r.seq, shared: r.shared, owner: long(node.stat.ephemeralOwner) };
  });
}

async function childrenOrEmpty(conn: ZkConn, path: string): Promise<string[]> {
  return conn.children(path).catch((err: unknown) => {
    if (isUnreachable(err)) throw err;
    return [];
  });
}

/** Curator InterProcessSemaphoreV2: holders are the leases whose session does not own the `locks/` head. */
async function curatorSemaphore(conn: ZkConn, path: string): Promise<ZkLock> {
  const [leaseNames, lockNames] = await Promise.all([
    childrenOrEmpty(conn, `${path}/leases`),
    childrenOrEmpty(conn, `${path}/locks`),
  ]);
  const [leases, locks] = await Promise.all([
    queueOf(conn, `${path}/leases`, leaseNames),
    queueOf(conn, `${path}/locks`, lockNames),
  ]);
  const queue = bySequence(locks);
  const head = queue[0]?.owner;
  const acquiring = bySequence(leases).filter((l) => head !== undefined && l.owner === head);
  const holders = bySequence(leases).filter((l) => !acquiring.includes(l));
  const waiters = [...acquiring, ...queue.filter((q) => !(acquiring.length && q.owner === head))];
  return { path, format: 'curator-semaphore', holders, waiters, reusedNames: false };
}

/** kazoo Semaphore: the leases are `<p>`'s children (not sequential); waiters queue in the kazoo Lock `<p>-__lock__`. */
async function kazooSemaphore(conn: ZkConn, path: string, names: string[]): Promise<ZkLock> {
  const [nodes, queueNames, self] = await Promise.all([
    readNodes(conn, path, names.filter(isKazooLease)),
    childrenOrEmpty(conn, `${path}-__lock__`),
    conn.read(path),
  ]);
  const holders = nodes
    .sort((a, b) => (long(a.stat.czxid) < long(b.stat.czxid) ? -1 : 1))
    .map((node) => ({ node, seq: '', shared: true, owner: long(node.stat.ephemeralOwner) }));
  const waiters = bySequence(await queueOf(conn, `${path}-__lock__`, queueNames));
  const max = self?.data.toString('utf8');
  return {
    path,
    format: 'kazoo-semaphore',
    holders,
    waiters,
    reusedNames: true,
    ...(max && /^\d+$/.test(max) ? { maxLeases: max } : {}),
  };
}

/** kazoo NonBlockingLease: a persistent `lease_holder` with JSON {version, holder, end}; it outlives its session. */
async function kazooLease(conn: ZkConn, path: string): Promise<ZkLock | null> {
  const node = await conn.read(`${path}/lease_holder`);
  if (!node) return null;
  let parsed: { holder?: unknown; end?: unknown };
  try {
    parsed = JSON.parse(node.data.toString('utf8')) as typeof parsed;
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null; // JSON, but no lease (`null`, a number)
  const endMs = Date.parse(`${String(parsed.end)}Z`);
  if (typeof parsed.holder !== 'string' || Number.isNaN(endMs)) return null;
  const holder = { node, seq: '', shared: false, owner: 0n };
  const lease = { holder: parsed.holder, endMs };
  return { path, format: 'kazoo-lease', holders: [holder], waiters: [], reusedNames: true, lease };
}

/** What layout the children of `path` (and its parent's listing, for kazoo's `<p>-__lock__`) make. */
export function layoutOf(names: string[], hasSiblingQueue: boolean): Layout['kind'] {
  if (names.includes('leases') && names.includes('locks')) return 'curator-semaphore';
  if (names.includes('lease_holder')) return 'kazoo-lease';
  if (hasSiblingQueue && names.every(isKazooLease)) return 'kazoo-semaphore';
  return names.some((n) => recipeNode(n)) ? 'queue' : 'none';
}

/** The lock at `path`, given its children's names; null when nothing there is a lock (or nothing holds it). */
export async function readLock(
  conn: ZkConn,
  path: string,
  names: string[],
  hasSiblingQueue: boolean,
): Promise<ZkLock | null> {
  const kind = layoutOf(names, hasSiblingQueue);
  if (kind === 'curator-semaphore') return curatorSemaphore(conn, path);
  if (kind === 'kazoo-lease') return kazooLease(conn, path);
  if (kind === 'kazoo-semaphore') return kazooSemaphore(conn, path, names);
  if (kind === 'none') return null;
  const queue = await queueOf(conn, path, names);
  const { holders, waiters } = splitQueue(queue);
  let format = formatOf(names.map(recipeNode).filter((r) => r !== null));
  if (format === 'kazoo-lock' && holders[0] && isLockboard(holders[0].node.data)) format = 'lockboard';
  if (format === 'curator-mutex' && holders[0] && isSelectorId(holders[0].node.data))
    format = 'curator-leader-selector';
  return { path, format, holders, waiters, reusedNames: false };
}

/** Lockboard's own node data: JSON with format lockboard/1 (kazoo reads it as the contender's identifier). */
function isLockboard(data: Buffer): boolean {
  return data[0] === 0x7b && data.toString('utf8').includes('"format":"lockboard/1"');
}
