// The release of a Lease: one PUT pinned to the resourceVersion the operator saw, clearing holderIdentity as its own
// writer releases it (client-go: holderIdentity "", leaseDurationSeconds 1, acquire = renew = now, in MicroTime with
// six fractional digits; Terraform: holderIdentity unset and its LockInfo annotation removed). Never a DELETE: a live
// holder re-creates a deleted Lease at once, with a new uid and leaseTransitions back to 0.
import type { StoreReleaseOutcome } from '../../store';
import { readLease, TF_LOCK_INFO } from './formats';
import { KubeRequestError, microTime, type Lease, type LeaseApi } from './lease';
import { holderHash } from './version';

/** The Lease as its writer leaves it released, pinned to `resourceVersion`. */
export function clearedLease(l: Lease, resourceVersion: string, nowMs: number): Lease {
  const kind = readLease(l)?.kind ?? 'lease';
  const metadata = { ...l.metadata, resourceVersion };
  const spec = { ...(l.spec ?? {}) };
  if (kind === 'client-go-lease') {
    Object.assign(spec, { holderIdentity: '', leaseDurationSeconds: 1 });
    spec.acquireTime = spec.renewTime = microTime(nowMs);
  } else {
    delete spec.holderIdentity;
  }
  if (kind === 'terraform' && metadata.annotations) {
    const annotations = { ...metadata.annotations };
    delete annotations[TF_LOCK_INFO];
    metadata.annotations = annotations;
  }
  return { ...l, metadata, spec };
}

/** What a Lease now is, against what the operator saw: a renew by the same holder, or another holder (or Lease). */
export function outcomeAgainst(now: Lease | null, seen: Seen): StoreReleaseOutcome {
  const r = now && readLease(now);
  if (!now || !r) return 'gone';
  if (now.metadata.uid !== seen.uid) return 'changed'; // deleted and re-created: another Lease
  if (now.metadata.resourceVersion === seen.resourceVersion) return 'released';
  return holderHash(r.holder) === seen.holder ? 'refreshed' : 'changed';
}

/** What the operator saw: the Lease's uid and resourceVersion, and the hash of its holderIdentity. */
interface Seen {
  uid: string;
  resourceVersion: string;
  holder: string;
}

/** The pinned PUT: `released`, or (on 409 or 404) what the Lease is now. */
export async function putCleared(
  api: LeaseApi,
  l: Lease,
  seen: Seen,
): Promise<{ outcome: StoreReleaseOutcome; now: Lease | null }> {
  try {
    await api.replace(clearedLease(l, seen.resourceVersion, Date.now()));
    return { outcome: 'released', now: null };
  } catch (err) {
    if (!(err instanceof KubeRequestError) || (err.status !== 409 && err.status !== 404)) throw err;
    const now = await api.read(l.metadata.namespace, l.metadata.name);
    const outcome = outcomeAgainst(now, seen);
    return { outcome: outcome === 'released' ? 'changed' : outcome, now };
  }
}
