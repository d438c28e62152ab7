// Delivery claims in ZooKeeper (one webhook delivery per event across console replicas): a persistent node
// `<source path>/.lockboard/claims/<key>`, beside the trail and skipped by the walk with it; the create fails with
// NODE_EXISTS for every caller but the first. Persistent and never removed by Lockboard: ZooKeeper's TTL nodes need
// extendedTypesEnabled, off by default (README: how to remove old ones).
import { codeOf, ZK, type ZkConn } from './conn';
import { joinPath } from './source';

export async function claimInZooKeeper(conn: ZkConn, base: string, key: string): Promise<boolean> {
  const dir = joinPath(base, '.lockboard/claims');
  for (let attempt = 0; ; attempt++) {
    try {
      await conn.create(`${dir}/${key}`, Buffer.alloc(0), conn.zk.CreateMode.PERSISTENT);
      return true;
    } catch (err) {
      if (codeOf(err) === ZK.NODE_EXISTS) return false;
      if (codeOf(err) !== ZK.NO_NODE || attempt > 0) throw err;
      // the first claim under this source: its parents, which another replica may be creating too
      await conn.mkdirp(dir).catch((e: unknown) => {
        if (codeOf(e) !== ZK.NODE_EXISTS) throw e;
      });
    }
  }
}
