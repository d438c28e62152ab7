// Delivery claims in ZooKeeper (one webhook delivery per event across console replicas): a persistent node
// `<source path>/.lockboard/claims/<key>`, beside the trail and skipped by the walk with it; the create fails with
// NODE_EXISTS for every caller but the first. ZooKeeper's TTL nodes need extendedTypesEnabled, off by default, so
// the console removes the claims whose ctime (the server's) is over two days old, at most hourly (claim-keeping.ts).
import { CLAIM_KEY, ClaimPruner } from '../../claim-keeping';
import { codeOf, long, ZK, type ZkConn } from './conn';
import { joinPath } from './source';

export class ZooKeeperClaims {
  private readonly pruner = new ClaimPruner((cutoffMs) => this.prune(cutoffMs));
  private readonly dir: string;

  constructor(
    private readonly conn: ZkConn,
    base: string,
  ) {
    this.dir = joinPath(base, '.lockboard/claims');
  }

  /** True for the one caller that created the node; `keepMs` for tests (default two days). */
  async claim(key: string, keepMs?: number): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.conn.create(`${this.dir}/${key}`, Buffer.alloc(0), this.conn.zk.CreateMode.PERSISTENT);
        this.pruner.maybe(keepMs);
        return true;
      } catch (err) {
        if (codeOf(err) === ZK.NODE_EXISTS) return false;
        if (codeOf(err) !== ZK.NO_NODE || attempt > 0) throw err;
        // the first claim under this source: its parents, which another replica may be creating too
        await this.conn.mkdirp(this.dir).catch((e: unknown) => {
          if (codeOf(e) !== ZK.NODE_EXISTS) throw e;
        });
      }
    }
  }

  /** Removes the claim nodes created before `cutoffMs` (their version pinned: a node made anew since is kept). */
  private async prune(cutoffMs: number): Promise<void> {
    for (const name of await this.conn.children(this.dir)) {
      if (!CLAIM_KEY.test(name)) continue;
      const path = `${this.dir}/${name}`;
      const stat = await this.conn.exists(path);
      if (!stat || Number(long(stat.ctime)) >= cutoffMs) continue;
      await this.conn.remove(path, stat.version).catch(() => undefined); // gone meanwhile: another replica's prune
    }
  }
}
