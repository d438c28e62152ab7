// Kubernetes' words for a Lease: the holderIdentity, the resourceVersion a release is pinned to, a 409 Conflict when
// anyone wrote the Lease since it was read, and the truth table per Lease kind: a client-go leader renews its Lease
// (judged by two observations a lease apart); Terraform's kubernetes backend and duration-less Leases are never
// renewed, so they are never called alive.
import type { StoreTerms } from '../../store';
import type { HealthWords } from '../../types';
import type { LeaseKind } from './formats';

const RENEWED: HealthWords = {
  meaning: {
    healthy: 'The leader renews the Lease: it changed within leaseDurationSeconds.',
    overdue:
      'Past the renewTime plus lease its writer recorded; the console confirms once it has seen it unchanged for the lease.',
    expired: 'Unchanged for longer than its lease: client-go candidates take it over.',
    'long-held': 'The leader renews it, but has held it longer than the configured limit.',
  },
  changes: {
    healthy: 'Every renew pushes the expiry back; unchanged for leaseDurationSeconds, it expires.',
    overdue: 'A renew makes it healthy again; unchanged for its lease, it expires.',
    expired: 'It stays until a candidate takes it over or an operator clears it.',
  },
  advice: {
    healthy: 'Only if you know the leader must stop: it is renewing, and its next renew fails after the clear.',
    expired: 'Yes: its leader stopped renewing.',
    'long-held': 'Only if you know its leader is stuck: it is renewing.',
  },
};

const NEVER_RENEWED = (what: string): HealthWords => ({
  meaning: {
    unknown: `Liveness cannot be judged: ${what} It never expires by itself; only its holder or an operator can clear it.`,
    'long-held': `Held longer than the configured limit. ${what} So whether its holder still runs cannot be judged.`,
  },
  advice: {
    unknown: 'Its liveness cannot be judged: check with its holder before clearing.',
    'long-held': 'Its liveness cannot be judged: clear only if its holder confirms its run is gone.',
  },
});

const KUBE_WORDS: Record<LeaseKind, HealthWords> = {
  'client-go-lease': RENEWED,
  terraform: NEVER_RENEWED('Terraform’s kubernetes backend writes no duration and never renews its Lease.'),
  lease: NEVER_RENEWED('this Lease records no duration and nothing renews it.'),
};

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
