// Kubernetes' truth table per Lease kind: a client-go leader renews its Lease (judged by two observations a lease
// apart); Terraform's kubernetes backend and duration-less Leases are never renewed, so they are never called alive.
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

export const KUBE_WORDS: Record<LeaseKind, HealthWords> = {
  'client-go-lease': RENEWED,
  terraform: NEVER_RENEWED('Terraform’s kubernetes backend writes no duration and never renews its Lease.'),
  lease: NEVER_RENEWED('this Lease records no duration and nothing renews it.'),
};
