// The force-release of one ZooKeeper lock: the exact holder node the version names, deleted by one
// multi(check(node, version), delete(node, version)). A waiter's node is never a target; a successor (another node)
// is `changed`; the holder's own later write (or a lease renewed by the same holder) is `refreshed`.
import { LockOptionsError } from '../../errors';
import type { LockView, ReleaseRequest, StoreReleaseOutcome } from '../../store';
import { codeOf, long, ZK, type ZkConn } from './conn';
import type { Contender, ZkLock } from './read';
import { parseVersion } from './version';
import { branded } from '../../support/branded';

/**
 * A release whose old holder is not told (a leader election, or a recipe lock whose holder keeps believing it holds)
 * without `acceptTwoLeaders`: a usage error with the store's sentence and the flag.
 */
export class TwoLeadersError extends LockOptionsError {
  constructor(name: string, sentence: string) {
    super(`${name}: ${sentence} Confirm it with --accept-two-leaders (CLI) or acceptTwoLeaders: true (library, API).`);
    this.name = 'TwoLeadersError';
  }
}

export function assertAccepted(view: LockView, r: ReleaseRequest): void {
  if (view.terms.twoLeaders && r.acceptTwoLeaders !== true) throw new TwoLeadersError(view.name, view.terms.twoLeaders);
}

/** Which holder the version names, or what happened to it. */
export function targetOf(
  lock: ZkLock,
  version: string,
  identity: string | undefined,
  identityOf: (c: Contender) => string,
): Contender | 'changed' | 'refreshed' {
  const seen = parseVersion(version);
  const node = lock.holders.find((h) => long(h.node.stat.czxid) === seen.czxid);
  if (node) return node.node.stat.version === seen.dataVersion ? node : 'refreshed';
  // a lease renewed by its holder is a new node with the same holder: alive, not a successor
  const same = identity !== undefined && lock.holders.some((h) => (lock.lease?.holder ?? identityOf(h)) === identity);
  return same && lock.lease ? 'refreshed' : 'changed';
}

/** The multi; for a node whose name can be re-created, its czxid is re-read just before (the weaker pin). */
export async function deleteExactly(
  conn: ZkConn,
  target: Contender,
  reusedName: boolean,
): Promise<StoreReleaseOutcome> {
  const { path } = target.node;
  if (reusedName) {
    const now = await conn.exists(path);
    if (!now) return 'gone';
    if (long(now.czxid) !== long(target.node.stat.czxid)) return 'changed';
  }
  try {
    await conn.checkAndDelete(path, target.node.stat.version);
    return 'released';
  } catch (err) {
    if (codeOf(err) === ZK.BAD_VERSION) return 'refreshed';
    if (codeOf(err) === ZK.NO_NODE) return 'gone';
    throw err;
  }
}

branded(TwoLeadersError, 'TwoLeadersError');
