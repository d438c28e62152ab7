// Kubernetes in the registry: kubernetes://NAMESPACE (every namespace: kubernetes://), @kubernetes/client-node 1.4
// loaded when a source is opened, credentials as kubectl finds them. Lockboard's lock is a client-go style Lease.
import { holdOn, runOptions, type OpenOptions, type SourceSpec, type StoreDefinition } from '../types';
import { parseKubeSource } from './source';
import { KUBERNETES_VERSION } from './version';

async function open(spec: SourceSpec, o: OpenOptions) {
  const src = parseKubeSource(spec.url);
  const [{ KubeLockStore }, { connectKubernetes }] = await Promise.all([import('./store'), import('./client')]);
  const api = await connectKubernetes(o.env, src.context);
  return new KubeLockStore({
    api,
    source: spec.id,
    ...(src.namespace ? { namespace: src.namespace } : {}),
    auditNamespace: src.audit ?? src.namespace ?? api.namespace ?? 'default',
    longHeldMs: o.longHeldMs,
  });
}

export const kubernetes: StoreDefinition = {
  kind: 'kubernetes',
  label: 'Kubernetes',
  versionShape: KUBERNETES_VERSION,
  watchIntervalMs: 2_000,
  schemes: ['kubernetes'],
  form: 'kubernetes://NAMESPACE',
  parse(url) {
    const s = parseKubeSource(url);
    // Sources whose records go to one audit Lease share its trail (read once); every namespace's source without
    // ?audit= finds its Lease through the kubeconfig, so it keeps a trail of its own
    const auditNs = s.audit ?? s.namespace;
    const trail = auditNs && `kubernetes-audit://${s.context ?? ''}/${auditNs}`;
    return {
      kind: 'kubernetes',
      id: s.display,
      bucket: s.display,
      bucketId: s.display,
      prefix: '',
      url,
      ...(trail ? { trail } : {}),
    };
  },
  open,
  async acquire(spec, name, o) {
    const [{ acquireKubeLease }, store] = await Promise.all([import('./acquire'), open(spec, o)]);
    let ref: { namespace: string; lease: string };
    try {
      ref = store.refOf(name);
    } catch (err) {
      await store.close();
      throw err;
    }
    const r = runOptions(o);
    return holdOn({
      name: `${spec.id} ${name}`,
      close: () => store.close(),
      acquire: () =>
        acquireKubeLease({
          api: store.api,
          namespace: ref.namespace,
          name: ref.lease,
          identity: r.identity,
          ttlMs: Math.max(1_000, Math.round(r.ttlMs / 1000) * 1000),
          timeoutMs: r.timeoutMs,
          signal: r.signal,
          onWait: r.onWait,
          holder: () => store.inspect(name),
        }),
      async release(lock, details) {
        const outcome = await lock.release();
        await store
          .record({ event: 'released', lock: name, generation: lock.fencingToken, ...details })
          .catch(() => '');
        return outcome;
      },
    });
  },
};
