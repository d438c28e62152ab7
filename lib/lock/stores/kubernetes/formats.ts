// Which Leases are locks, and in whose format: client-go's LeaseLock (every controller's leader election, and
// Lockboard's own lock), Terraform's `kubernetes` backend (lock-tfstate-*, its LockInfo in an annotation, no
// duration: it never expires), and other held Leases. Node heartbeats (kube-node-lease) and apiserver identity Leases
// are counted, never listed; a Lease with no holder holds nothing.
import { terraform } from '../../objects/formats/terraform';
import { timeOf, type Lease } from './lease';

export const TF_LOCK_INFO = 'app.terraform.io/lock-info';
/** The Lease that keeps Lockboard's own trail on this source (audit.ts). */
export const AUDIT_LEASE = 'lockboard-audit';

export type LeaseKind = 'client-go-lease' | 'terraform' | 'lease';

export interface LeaseReading {
  kind: LeaseKind;
  label: string;
  holder: string;
  /** The holder's own renewTime + leaseDurationSeconds (the writer's clock), when it records both. */
  durationMs?: number;
  renewMs?: number;
  acquiredMs?: number;
  transitions?: number;
  details: [string, string][];
  /** Who the lock is for, as Terraform's LockInfo names it. */
  identity: string;
}

/** Why a Lease is not a lock (a heartbeat, an identity, Lockboard's trail), or undefined when it may be one. */
export function notALock(l: Lease): string | undefined {
  const { namespace, name } = l.metadata;
  if (namespace === 'kube-node-lease') return 'A node heartbeat Lease (kube-node-lease): the kubelet renews it';
  if (namespace === 'kube-system' && name.startsWith('apiserver-'))
    return 'An apiserver identity Lease: each kube-apiserver renews its own';
  if (name === AUDIT_LEASE) return 'Lockboard’s audit trail on this source';
  return undefined;
}

/** The lock a held Lease is, or null when nobody holds it. */
export function readLease(l: Lease): LeaseReading | null {
  const s = l.spec ?? {};
  const holder = s.holderIdentity ?? '';
  if (holder === '' || notALock(l)) return null;
  const info = l.metadata.annotations?.[TF_LOCK_INFO];
  const transitions = s.leaseTransitions ?? undefined;
  const common = {
    holder,
    acquiredMs: timeOf(s.acquireTime),
    renewMs: timeOf(s.renewTime),
    ...(transitions !== undefined ? { transitions } : {}),
  };
  if (l.metadata.name.startsWith('lock-tfstate-') && info !== undefined) {
    const read = terraform.read({
      name: `${l.metadata.name}.tflock`,
      metadata: {},
      size: info.length,
      createdMs: 0,
      updatedMs: 0,
      temporaryHold: false,
      body: Buffer.from(info),
    });
    const created = read?.details?.find(([k]) => k === 'Created')?.[1];
    return {
      kind: 'terraform',
      label: 'Terraform state lock (kubernetes backend)',
      ...common,
      acquiredMs: common.acquiredMs ?? timeOf(created),
      identity: read?.identity ?? holder,
      details: [['Lease holder (LockInfo ID)', holder], ...(read?.details ?? [])],
    };
  }
  const duration = s.leaseDurationSeconds ?? undefined;
  const leaseDetails: [string, string][] = [
    ['holderIdentity', holder],
    ...(duration !== undefined ? [['leaseDurationSeconds', `${duration} s`] as [string, string]] : []),
    ...(s.acquireTime ? [['acquireTime', String(s.acquireTime)] as [string, string]] : []),
    ...(s.renewTime ? [['renewTime (writer’s clock)', String(s.renewTime)] as [string, string]] : []),
    ...(transitions !== undefined ? [['leaseTransitions', String(transitions)] as [string, string]] : []),
  ];
  if (duration && common.renewMs !== undefined)
    return {
      kind: 'client-go-lease',
      label: 'Leader election Lease (client-go LeaseLock)',
      ...common,
      durationMs: duration * 1000,
      identity: holder,
      details: leaseDetails,
    };
  return { kind: 'lease', label: 'Lease', ...common, identity: holder, details: leaseDetails };
}
