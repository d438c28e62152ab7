// Discovery on Kubernetes: `kubernetes://` (every namespace, ?context= as kubectl's) is listed as `ls kubernetes://`
// lists it, and its Leases grouped by namespace: kube-node-lease's node heartbeats and kube-system's apiserver and
// controller leases apart from the applications'. Terraform's kubernetes backend keeps its lock as a Lease in its
// namespace.
import { selfRoot, TargetError, type Discovery } from '../discovery';

export const kubernetesDiscovery: Discovery = {
  target: 'kubernetes:// (every namespace)',
  async roots(target) {
    const m = /^kubernetes:\/\/(\?[^#]*)?$/i.exec(target);
    if (!m)
      throw new TargetError(`expected kubernetes:// (or kubernetes://?context=NAME), got ${JSON.stringify(target)}`);
    return selfRoot(target);
  },
  targetOf(url) {
    // a configured namespace's cluster: every namespace, in the same kubeconfig context
    const context = new URL(url).searchParams.get('context');
    return context ? `kubernetes://?context=${encodeURIComponent(context)}` : 'kubernetes://';
  },
  narrow(root, group) {
    if (!group.endsWith('/')) return undefined;
    const query = /\?.*$/s.exec(root)?.[0] ?? '';
    return `kubernetes://${group.slice(0, -1)}${query}`;
  },
  terraform(type, a) {
    if (type !== 'kubernetes') return undefined;
    return { sources: [`kubernetes://${a.namespace || 'default'}`], problems: [] };
  },
};
