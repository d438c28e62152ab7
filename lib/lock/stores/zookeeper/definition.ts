// ZooKeeper in the registry: zookeeper://[user:pass@]host:port[,host:port]/path (zk:// too; ZOOKEEPER_AUTH for digest
// credentials the URL lacks), node-zookeeper-client loaded when a source is opened. Lockboard's own lock holds its
// own session: its node lives exactly as long as that session.
import { holdOn, type OpenOptions, type SourceSpec, type StoreDefinition } from '../types';
import { connectZooKeeper } from './conn';
import { nameOfPath, parseZooKeeperSource, pathOfName } from './source';
import { ZOOKEEPER_VERSION } from './version';
import { zookeeperDiscovery } from './discover';
import { zookeeperFormats } from './lock-formats';

function sourceOf(spec: SourceSpec, o: OpenOptions) {
  return parseZooKeeperSource(spec.url, o.env);
}

export const zookeeper: StoreDefinition = {
  kind: 'zookeeper',
  formats: zookeeperFormats,
  label: 'ZooKeeper',
  versionShape: ZOOKEEPER_VERSION,
  watchIntervalMs: 2_000,
  schemes: ['zookeeper', 'zk'],
  form: 'zookeeper://HOST:PORT/PATH',
  discover: zookeeperDiscovery,
  parse(url, env) {
    const z = parseZooKeeperSource(url, env);
    const bucketId = z.display;
    // the id ends where the prefix begins (`…/svc/` + `svc/`), as a gs:// source's does: a lock's address is the
    // id followed by its name under the prefix (`zookeeper://h:2181/svc/api/latch`)
    return {
      kind: 'zookeeper',
      id: z.path === '/' ? z.display : `${z.display}/`,
      bucket: bucketId,
      bucketId,
      prefix: z.path === '/' ? '' : `${nameOfPath(z.path)}/`,
      url,
    };
  },
  async open(spec, o) {
    const [{ ZooKeeperLockStore }, conn] = await Promise.all([
      import('./store'),
      // a short session: a server restarted without its data refuses the old one until it times out (kept-client.ts)
      connectZooKeeper(sourceOf(spec, o), { renew: true, sessionTimeoutMs: 10_000 }),
    ]);
    return new ZooKeeperLockStore({ conn, longHeldMs: o.longHeldMs, close: async () => conn.close() });
  },
  async acquire(spec, name, o) {
    const source = sourceOf(spec, o);
    const path = pathOfName(name);
    // the session is the lease: its timeout is the lock's TTL (the server bounds it to 2-20 ticks)
    const [{ acquireZooKeeperLock }, { ZooKeeperLockStore }, conn] = await Promise.all([
      import('./acquire'),
      import('./store'),
      connectZooKeeper(source, { sessionTimeoutMs: o.ttlMs }),
    ]);
    const trail = new ZooKeeperLockStore({ conn, sessions: false });
    return holdOn({
      name: `${spec.id} ${path}`,
      close: () => conn.close(),
      acquire: async () => {
        const lock = await acquireZooKeeperLock({ conn, name: path, ...o });
        await trail
          .record({ event: 'acquired', lock: nameOfPath(path), generation: lock.fencingToken })
          .catch(() => '');
        return lock;
      },
      async release(lock, details) {
        const outcome = await lock.release();
        await trail
          .record({ event: 'released', lock: nameOfPath(path), generation: lock.fencingToken, ...details })
          .catch(() => '');
        return outcome;
      },
    });
  },
};
