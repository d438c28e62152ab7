// Kubernetes in the registry: kubernetes://NAMESPACE (every namespace: kubernetes://), @kubernetes/client-node 1.4
// loaded when a source is opened, credentials as kubectl finds them. Lockboard's lock is a client-go style Lease.
import { holdOn, runOptions, type OpenOptions, type SourceSpec, type StoreDefinition } from '../types';
import { kubeTargetOf } from './kubeconfig';
import { parseKubeSource, type KubeSource } from './source';
import { KUBERNETES_VERSION } from './version';
import { kubernetesDiscovery } from './discover';
import { kubernetesFormats } from './lock-formats';

/** The namespace of the source's audit Lease: `?audit=`, the source's, else the kubeconfig context's. */
const auditNamespaceOf = (s: KubeSource, env: Record<string, string | undefined>): string | undefined =>
  s.audit ?? s.namespace ?? kubeTargetOf(env, s.context)?.namespace;

async function open(spec: SourceSpec, o: OpenOptions) {
  const src = parseKubeSource(spec.url);
  const [{ KubeLockStore }, { connectKubernetes }] = await Promise.all([import('./store'), import('./client')]);
  const api = await connectKubernetes(o.env, src.context);
  return new KubeLockStore({
    api,
    source: spec.id,
    ...(src.namespace ? { namespace: src.namespace } : {}),
    auditNamespace: auditNamespaceOf(src, o.env) ?? api.namespace ?? 'default',
    longHeldMs: o.longHeldMs,
  });
}

export const kubernetes: StoreDefinition = {
  kind: 'kubernetes',
  formats: kubernetesFormats,
  label: 'Kubernetes',
  versionShape: KUBERNETES_VERSION,
  watchIntervalMs: 2_000,
  schemes: ['kubernetes'],
  form: 'kubernetes://NAMESPACE',
  discover: kubernetesDiscovery,
  parse(url, env) {
    const s = parseKubeSource(url);
    // Sources whose records go to one audit Lease (one cluster, one namespace) share its trail: read once, each event
    // counted once. The cluster is the context's server, as kubectl resolves it; unresolved, the source keeps its own
    const target = kubeTargetOf(env, s.context);
    const auditNs = auditNamespaceOf(s, env) ?? (target ? 'default' : undefined);
    const trail = target && auditNs && `kubernetes-audit://${target.server}/${auditNs}`;
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
  hold: async () => (await import('./hold')).kubeHolds(open),
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
