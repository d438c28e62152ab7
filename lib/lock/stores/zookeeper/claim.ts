// Delivery claims in ZooKeeper (one webhook delivery per event across console replicas): a persistent node
// `<source path>/.lockboard/claims/<key>`, beside the trail and skipped by the walk with it; the create fails with
// NODE_EXISTS for every caller but the first. ZooKeeper's TTL nodes need extendedTypesEnabled, off by default, so
// the console removes the claims whose ctime (the server's) is over two days old, at most hourly (claim-keeping.ts).
// As leases (claim-lease.ts), with creates only: the claim node's data is its first lease (version 0); each later
// write creates the child `<n+1>` of the version `n` read, which fails with NODE_EXISTS for every writer but one, so a
// replace is still one conditional write; a read takes the highest child. Children two writes old are removed.
import type { ClaimRecords } from '../../claim-lease';
import { CLAIM_KEY, ClaimPruner } from '../../claim-keeping';
import { codeOf, long, ZK, type ZkConn } from './conn';
import { joinPath } from './source';

export class ZooKeeperClaims implements ClaimRecords {
  private readonly pruner = new ClaimPruner((cutoffMs) => this.prune(cutoffMs));
  private readonly dir: string;

  constructor(
    private readonly conn: ZkConn,
    base: string,
  ) {
    this.dir = joinPath(base, '.lockboard/claims');
  }

  /** True for the one caller that created the node; `keepMs` for tests (default two days). */
  async claim(key: string, keepMs?: number, data = Buffer.alloc(0)): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.conn.create(`${this.dir}/${key}`, data, this.conn.zk.CreateMode.PERSISTENT);
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

  async create(key: string, body: string): Promise<string | null> {
    return (await this.claim(key, undefined, Buffer.from(body))) ? '0' : null;
  }

  async read(key: string): Promise<{ body: string; version: string } | null> {
    const node = `${this.dir}/${key}`;
    for (;;) {
      const writes = await this.writes(node);
      if (writes === null) return null;
      const n = writes.at(-1) ?? 0;
      const read = await this.conn.read(n === 0 ? node : `${node}/${pad(n)}`);
      if (read) return { body: read.data.toString('utf8'), version: String(n) };
      // removed meanwhile (a prune, or a child two writes old): read again
    }
  }

  async replace(key: string, body: string, version: string): Promise<string | null> {
    const node = `${this.dir}/${key}`;
    const n = Number(version) + 1;
    try {
      await this.conn.create(`${node}/${pad(n)}`, Buffer.from(body), this.conn.zk.CreateMode.PERSISTENT);
    } catch (err) {
      if (codeOf(err) === ZK.NODE_EXISTS || codeOf(err) === ZK.NO_NODE) return null;
      throw err;
    }
    if (n >= 3) await this.conn.remove(`${node}/${pad(n - 2)}`, -1).catch(() => undefined);
    return String(n);
  }

  /** The writes after the first, in order (null: no claim node). */
  private async writes(node: string): Promise<number[] | null> {
    try {
      const names = await this.conn.children(node);
      return names
        .filter((c) => /^\d{10}$/.test(c))
        .map(Number)
        .sort((a, b) => a - b);
    } catch (err) {
      if (codeOf(err) === ZK.NO_NODE) return null;
      throw err;
    }
  }

  /** Removes the claim nodes created before `cutoffMs` (their version pinned: a node made anew since is kept). */
  private async prune(cutoffMs: number): Promise<void> {
    for (const name of await this.conn.children(this.dir)) {
      if (!CLAIM_KEY.test(name)) continue;
      const path = `${this.dir}/${name}`;
      const stat = await this.conn.exists(path);
      if (!stat || Number(long(stat.ctime)) >= cutoffMs) continue;
      // a lease's writes first (a node with children is not removed)
      for (const n of (await this.writes(path).catch(() => null)) ?? [])
        await this.conn.remove(`${path}/${pad(n)}`, -1).catch(() => undefined);
      await this.conn.remove(path, stat.version).catch(() => undefined); // gone meanwhile: another replica's prune
    }
  }
}

const pad = (n: number): string => String(n).padStart(10, '0');
