// Delivery claims in Kubernetes (one webhook delivery per event across console replicas): a Lease named
// `lockboard-claim-<key>` in the trail's namespace, labelled as Lockboard's claim, created by one POST: 409
// AlreadyExists for every caller but the first. It names no holder, so it holds nothing and is never listed (a Lease
// nobody holds is skipped). The console's Role needs `create` on leases there (deploy/kubernetes/rbac.yaml). As leases
// (claim-lease.ts) the claim's lease is its annotation `lockboard.dev/claim-lease`, replaced by a PUT pinned to the
// resourceVersion read (409 Conflict: another replica's write), with the Role's `update`; the Role has no `delete`,
// so claims are never removed (README "Webhooks").
import type { ClaimRecords } from '../../claim-lease';
import { KubeRequestError, type Lease, type LeaseApi } from './lease';

const CLAIM_LABEL = 'lockboard.dev/claim';
const LEASE_ANNOTATION = 'lockboard.dev/claim-lease';

const leaseName = (key: string) => `lockboard-claim-${key.toLowerCase()}`;

function claimLease(namespace: string, key: string, lease?: string): Lease {
  const labels = { [CLAIM_LABEL]: 'webhook-delivery', 'app.kubernetes.io/managed-by': 'lockboard' };
  const annotations = lease === undefined ? {} : { annotations: { [LEASE_ANNOTATION]: lease } };
  return { metadata: { name: leaseName(key), namespace, labels, ...annotations }, spec: {} };
}

/** null where another caller's write came first (409). */
async function unlessConflict<T>(write: Promise<T>): Promise<T | null> {
  try {
    return await write;
  } catch (err) {
    if (err instanceof KubeRequestError && err.status === 409) return null;
    throw err;
  }
}

export async function claimInKubernetes(api: LeaseApi, namespace: string, key: string): Promise<boolean> {
  return (await unlessConflict(api.create(claimLease(namespace, key)))) !== null;
}

export class KubernetesClaims implements ClaimRecords {
  constructor(
    private readonly api: LeaseApi,
    private readonly namespace: string,
  ) {}

  async create(key: string, body: string): Promise<string | null> {
    const made = await unlessConflict(this.api.create(claimLease(this.namespace, key, body)));
    return made ? String(made.metadata.resourceVersion) : null;
  }

  async read(key: string): Promise<{ body: string; version: string } | null> {
    const l = await this.api.read(this.namespace, leaseName(key));
    if (!l) return null;
    return { body: l.metadata.annotations?.[LEASE_ANNOTATION] ?? '', version: String(l.metadata.resourceVersion) };
  }

  async replace(key: string, body: string, version: string): Promise<string | null> {
    const next = claimLease(this.namespace, key, body);
    next.metadata.resourceVersion = version;
    const put = await unlessConflict(this.api.replace(next));
    return put ? String(put.metadata.resourceVersion) : null;
  }
}
