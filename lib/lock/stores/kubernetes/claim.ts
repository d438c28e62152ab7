// Delivery claims in Kubernetes (one webhook delivery per event across console replicas): a Lease named
// `lockboard-claim-<key>` in the trail's namespace, labelled as Lockboard's claim, created by one POST: 409
// AlreadyExists for every caller but the first. It names no holder, so it holds nothing and is never listed (a Lease
// nobody holds is skipped). The console's Role needs `create` on leases there (deploy/kubernetes/rbac.yaml).
import { KubeRequestError, type LeaseApi } from './lease';

export const CLAIM_LABEL = 'lockboard.dev/claim';

export async function claimInKubernetes(api: LeaseApi, namespace: string, key: string): Promise<boolean> {
  const name = `lockboard-claim-${key.toLowerCase()}`;
  const labels = { [CLAIM_LABEL]: 'webhook-delivery', 'app.kubernetes.io/managed-by': 'lockboard' };
  try {
    await api.create({ metadata: { name, namespace, labels }, spec: {} });
    return true;
  } catch (err) {
    if (err instanceof KubeRequestError && err.status === 409) return false;
    throw err;
  }
}
