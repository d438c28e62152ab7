// Which Leases are locks, and in whose format: client-go's LeaseLock (every controller's leader election, and
// Lockboard's own lock), Terraform's `kubernetes` backend (lock-tfstate-*, its LockInfo in an annotation, no
// duration: it never expires), and other held Leases. Node heartbeats (kube-node-lease) and apiserver identity Leases
// are counted, never listed; a Lease with no holder holds nothing.
import { terraform } from '../../objects/formats/terraform';
import { timeOf, type Lease } from './lease';
import { annotationText, readSpec } from './untrusted';

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
  /** Fields dropped for their type or size, named in the lock's note. */
  dropped: string[];
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

/** Terraform's LockInfo annotation as the object its GCS backend writes, for the one Terraform reader. */
const tflock = (name: string, info: string) => ({
  name: `${name}.tflock`,
  metadata: {},
  size: info.length,
  createdMs: 0,
  updatedMs: 0,
  temporaryHold: false,
  body: Buffer.from(info),
});

/** The lock a held Lease is, or null when nobody holds it. Every field is checked (untrusted.ts). */
export function readLease(l: Lease): LeaseReading | null {
  const s = readSpec(l);
  if (s.holder === '' || notALock(l)) return null;
  const common = {
    holder: s.holder,
    acquiredMs: s.acquiredMs,
    renewMs: s.renewMs,
    ...(s.transitions !== undefined ? { transitions: s.transitions } : {}),
  };
  if (l.metadata.name.startsWith('lock-tfstate-') && l.metadata.annotations?.[TF_LOCK_INFO] !== undefined) {
    const info = annotationText(l, TF_LOCK_INFO);
    const read = info === undefined ? null : terraform.read(tflock(l.metadata.name, info));
    const created = read?.details?.find(([k]) => k === 'Created')?.[1];
    return {
      kind: 'terraform',
      label: 'Terraform state lock (kubernetes backend)',
      ...common,
      acquiredMs: common.acquiredMs ?? timeOf(created),
      identity: read?.identity ?? s.holder,
      details: [['Lease holder (LockInfo ID)', s.holder], ...(read?.details ?? [])],
      dropped: [
        ...s.dropped,
        ...(info === undefined ? [`${TF_LOCK_INFO} (larger than 64 KiB, or not text)`] : []),
        ...(read?.dropped ?? []).map((d) => `LockInfo ${d}`),
      ],
    };
  }
  const duration = s.durationSeconds;
  const leaseDetails: [string, string][] = [
    ['holderIdentity', s.holder],
    ...(duration !== undefined ? [['leaseDurationSeconds', `${duration} s`] as [string, string]] : []),
    ...(s.acquireText ? [['acquireTime', s.acquireText] as [string, string]] : []),
    ...(s.renewText ? [['renewTime (writer’s clock)', s.renewText] as [string, string]] : []),
    ...(s.transitions !== undefined ? [['leaseTransitions', String(s.transitions)] as [string, string]] : []),
  ];
  const base = { ...common, identity: s.holder, details: leaseDetails, dropped: s.dropped };
  if (duration && common.renewMs !== undefined)
    return {
      kind: 'client-go-lease',
      label: 'Leader election Lease (client-go LeaseLock)',
      ...base,
      durationMs: duration * 1000,
    };
  return { kind: 'lease', label: 'Lease', ...base };
}
