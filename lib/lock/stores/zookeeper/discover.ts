// Discovery on ZooKeeper: `zookeeper://HOST:PORT` is walked as `ls zookeeper://HOST:PORT/` walks it (the recipes'
// layouts: Curator's locks and latches, kazoo's), its locks grouped by their first path segment.
import { selfRoot, TargetError, type Discovery } from '../discovery';

export const zookeeperDiscovery: Discovery = {
  target: 'zookeeper://HOST:PORT',
  async roots(target) {
    const m = /^((?:zookeeper|zk):\/\/[^/?#]+)\/?$/i.exec(target);
    if (!m) throw new TargetError(`expected zookeeper://HOST:PORT (no path), got ${JSON.stringify(target)}`);
    return selfRoot(`${m[1]}/`);
  },
  narrow: (root, group) => (group.endsWith('/') ? `${root}${group.replace(/^\/+|\/+$/g, '')}` : undefined),
};
