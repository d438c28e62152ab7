// etcd in the registry: etcd://HOST:PORT[,HOST:PORT]/PREFIX (etcds:// with ?ca=&cert=&key= for TLS; a user and
// password from the URL or ETCD_USERNAME / ETCD_PASSWORD, never shown), npm etcd3 loaded when a source is opened.
import { holdOn, runOptions, type SourceSpec, type StoreDefinition } from '../types';
import { parseEtcdSource } from './source';
import { ETCD_VERSION } from './version';
import { etcdDiscovery } from './discover';
import { etcdFormats } from './lock-formats';

export const etcd: StoreDefinition = {
  kind: 'etcd',
  formats: etcdFormats,
  label: 'etcd',
  versionShape: ETCD_VERSION,
  // the watch on the prefix (changes()) tells the console of every change; this is the pace without it
  watchIntervalMs: 2_000,
  schemes: ['etcd', 'etcds'],
  form: 'etcd://HOST:PORT[,HOST:PORT]/PREFIX',
  discover: etcdDiscovery,
  hold: async () => (await import('./hold')).etcdHolds,
  parse(url, env) {
    const s = parseEtcdSource(url, env);
    // the container is the cluster (its audit trail is one); requests name the source with its prefix
    const cluster = `${s.tls ? 'etcds' : 'etcd'}://${s.hosts.join(',').toLowerCase()}`;
    return { kind: 'etcd', id: s.display, bucket: cluster, bucketId: s.display, prefix: s.prefix, url };
  },
  async open(spec, o) {
    const [{ EtcdLockStore }, { connectEtcd }, { VALUE_MESSAGE_CAP }] = await Promise.all([
      import('./store'),
      import('./client'),
      import('./bounded-read'),
    ]);
    const src = parseEtcdSource(spec.url, o.env);
    const client = await connectEtcd(src, o);
    const values = await connectEtcd(src, o, VALUE_MESSAGE_CAP).catch((err: unknown) => {
      client.close();
      throw err;
    });
    return new EtcdLockStore({
      client,
      values,
      prefix: src.prefix,
      source: spec.id,
      longHeldMs: o.longHeldMs,
      close: () => {
        client.close();
        values.close();
      },
    });
  },
  async acquire(spec: SourceSpec, name, o) {
    const [{ acquireEtcdLock }, { recordEtcdEvent }, { connectEtcd }] = await Promise.all([
      import('./acquire'),
      import('./audit'),
      import('./client'),
    ]);
    const client = await connectEtcd(parseEtcdSource(spec.url, o.env), o);
    const { ttlMs, timeoutMs, identity, signal, onWait } = runOptions(o);
    return holdOn({
      name: `${spec.id} ${name}`,
      close: () => client.close(),
      acquire: () => acquireEtcdLock({ client, name, ttlMs, timeoutMs, identity, signal, onWait }),
      async release(lock, details) {
        const outcome = await lock.release();
        await recordEtcdEvent(client, {
          event: 'released',
          lock: name,
          generation: lock.fencingToken,
          ...details,
        }).catch(() => '');
        return outcome;
      },
    });
  },
};
