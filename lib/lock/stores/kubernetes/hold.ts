// Holds on Kubernetes: a Lease written as client-go's LeaseLock writes it (holderIdentity, leaseDurationSeconds,
// acquireTime and renewTime as MicroTimes), holderIdentity naming the hold (owner, end, reason). Every client-go
// candidate finds it held until renewTime + leaseDurationSeconds and waits; then it takes it over, as from a leader
// that stopped renewing. A Lease is a leader election's: holding it stops every candidate from leading, so a hold
// needs --ack-leader-election. An existing Lease is replaced pinned to the resourceVersion read (409: refused).
import type { HoldFormat, HoldPlan, StoreHolds } from '../../hold-types';
import { holdOwner } from '../../hold-marker';
import type { OpenOptions, SourceSpec } from '../types';
import { microTime, type Lease } from './lease';
import type { KubeLockStore } from './store';

const LEASE_HOLD: HoldFormat = {
  id: 'lease',
  label: 'a Kubernetes Lease (client-go LeaseLock)',
  maxMs: 366 * 86_400_000,
  maxWords: 'leaseDurationSeconds, an int32 of seconds; Lockboard takes durations up to 366 days',
  endsItself: true,
  fits: () => true,
  ack: {
    flag: 'ack-leader-election',
    words:
      'a Lease is a leader election: holding it stops every candidate from leading until the hold ends; pass --ack-leader-election to hold it',
  },
};

const specOf = (plan: HoldPlan): NonNullable<Lease['spec']> => ({
  holderIdentity: holdOwner(plan.operator, plan.untilMs, plan.reason),
  leaseDurationSeconds: Math.ceil((plan.untilMs - plan.sinceMs) / 1000),
  acquireTime: microTime(plan.sinceMs),
  renewTime: microTime(plan.sinceMs),
});

export function kubeHolds(open: (spec: SourceSpec, o: OpenOptions) => Promise<KubeLockStore>): StoreHolds {
  return {
    formats: [LEASE_HOLD],
    async place(spec, o, plan) {
      const store = await open(spec, o);
      try {
        const { namespace, lease: name } = store.refOf(plan.name);
        const current = await store.api.read(namespace, name);
        const metadata = current ? current.metadata : { name, namespace };
        const transitions = (current?.spec?.leaseTransitions ?? -1) + 1;
        const lease: Lease = { metadata, spec: { ...specOf(plan), leaseTransitions: transitions } };
        await (current ? store.api.replace(lease) : store.api.create(lease));
        return true;
      } catch (err) {
        if ((err as { status?: number }).status === 409) return false;
        throw err;
      } finally {
        await store.close();
      }
    },
  };
}
