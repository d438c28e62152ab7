// Kubernetes' words for a Lease: the holderIdentity, the resourceVersion a release is pinned to, and a 409 Conflict
// when anyone wrote the Lease since it was read.
import type { StoreTerms } from '../../store';
import type { LeaseKind } from './formats';
import { KUBE_WORDS } from './health-words';

const TRAIL =
  'Force-releases are recorded in the annotations of the lockboard-audit Lease of the source’s namespace ' +
  '(the newest 100); client-go and Terraform record nothing.';

const LIVENESS: Record<LeaseKind, string> = {
  'client-go-lease':
    'The leader renews the Lease every few seconds; candidates (client-go) take it over once they have seen it unchanged for leaseDurationSeconds.',
  terraform:
    'Terraform’s kubernetes backend writes no duration: the Lease stays held until the apply unlocks it, even if the apply crashed.',
  lease: 'This Lease records no duration: nothing expires it; its writer clears holderIdentity when it is done.',
};

export function kubeTerms(kind: LeaseKind | 'none'): StoreTerms {
  return {
    storeLabel: 'Kubernetes',
    versionName: 'resourceVersion (and uid) of the Lease',
    since: 'Held since',
    ...(kind === 'client-go-lease' ? { updated: 'Last renew (writer’s clock)', ttl: 'leaseDurationSeconds' } : {}),
    liveness: kind === 'none' ? 'Not a lock.' : LIVENESS[kind],
    effect:
      'Clearing writes holderIdentity "" to the Lease (as client-go and Terraform release it), so a waiting candidate takes it at its next retry; a holder that is still running finds out at its next renew, which then fails.',
    rule: 'Kubernetes rule: one PUT of the Lease pinned to the resourceVersion you see here. If the holder renewed it since, or anyone else wrote it, the apiserver answers 409 Conflict (“the object has been modified; please apply your changes to the latest version”) and nothing changes: a live leader’s Lease cannot be cleared. The Lease is never deleted (a deleted Lease is re-created by its live holder).',
    trail: TRAIL,
    conflict:
      'The apiserver answered 409 Conflict (“the object has been modified; please apply your changes to the latest version and try again”): the Lease was written after you viewed it. A live leader renews its Lease every few seconds, so the resourceVersion pin refuses to clear it.',
    ...(kind === 'none' ? {} : { health: KUBE_WORDS[kind] }),
  };
}
