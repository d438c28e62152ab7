// Azure's words and truth table, per kind of lease: a Terraform lease is infinite and never renewed (its liveness
// cannot be judged), a WebJobs or Lockboard lease is fixed (Azure ends it within 60 s of its last renewal, so a lease
// still held is being renewed), and a lease without lock info names no holder. The trail and the rules, said once.
import type { StoreTerms } from '../../store';
import type { HealthWords } from '../../types';
import type { AzureKind } from './formats';

const INFINITE: HealthWords = {
  meaning: {
    unknown:
      'Liveness cannot be judged: an infinite lease never expires and is never renewed. Only its holder, `terraform force-unlock` or an operator ends it.',
  },
  advice: {
    unknown: 'Its liveness cannot be judged: check with its owner (Terraform: the user in "Who") before clearing.',
  },
};

const FIXED: HealthWords = {
  meaning: {
    healthy:
      'Held by a fixed lease: Azure ends it within 60 s of its last renewal, so while it stays held its holder is renewing it.',
    'long-held': 'Its holder keeps renewing the lease, and has held it longer than the configured limit.',
  },
  changes: {
    healthy: 'It ends by itself within 60 s once its holder stops renewing.',
    'long-held': 'It ends by itself within 60 s once its holder stops renewing.',
  },
  advice: {
    healthy:
      'The holder is renewing it: wait for it to end rather than clear it. A lease seen renewed is never broken.',
    'long-held': 'The holder is alive and renewing. Clear only if you know its work is wedged.',
  },
};

const RULES: Record<AzureKind, string> = {
  terraform:
    'Azure rule (as `terraform force-unlock` does it, pinned to your view): remove `terraformlockid` with the lease id = LockInfo ID and If-Match on the ETag you see, then release the lease with that id. A successor’s lease has another id, so both steps fail harmlessly (409/412). If the lease release still fails after three tries, the blob is left leased without lock info: you are told so, the failure is recorded, and it is listed again as a lease with no lock info, which a second release breaks. The state blob is never deleted.',
  lockboard:
    'Azure rule: rewrite the lock blob’s metadata with the lease id = its token and If-Match on the ETag you see, then release the lease with that id. A successor’s lease has another id (409/412), so it is never released.',
  lease:
    'Azure rule: re-read the lease just before, then break it (period 0) with If-Match on the ETag you see. The ETag does not change when a lease is released and re-taken, so a successor that took the lease in between and wrote nothing yet is not seen. The blob is never deleted.',
  webjobs:
    'Azure rule: re-read the lease just before, then break it (period 0) with If-Match on the ETag you see; a fixed lease seen renewed (held longer than any fixed lease lasts) is refused: its holder is alive. The blob is never deleted.',
};

const EFFECTS: Record<AzureKind, string> = {
  terraform:
    'Azure fences the old holder: if its apply is still running, its next state write carries the released lease id and fails with 412.',
  lockboard: 'The holder’s next renewal fails (its lease was released) and its signal aborts.',
  lease: 'Breaking fences the holder: its next write or renewal with its lease id fails (412/409).',
  webjobs:
    'Breaking ends the singleton’s lease; the host’s next renewal fails, and another host may take the lock at once.',
};

export function azureTerms(kind: AzureKind, duration: 'infinite' | 'fixed'): StoreTerms {
  const fixed = duration === 'fixed';
  return {
    storeLabel: 'Azure Blob Storage',
    versionName: 'ETag + lease id (or lease duration)',
    since: kind === 'terraform' || kind === 'lockboard' ? 'Held since' : 'Seen since',
    updated: 'Last write',
    ...(kind === 'lockboard' ? { ttl: 'Lease / renewal interval' } : {}),
    liveness: fixed
      ? 'A fixed lease (15–60 s) ends unless its holder renews it; Azure does not show renewals, so a lease held longer than 60 s is being renewed.'
      : 'An infinite lease never ends by itself: only its holder or an operator releases or breaks it.',
    effect: EFFECTS[kind],
    rule: RULES[kind],
    trail:
      'Force-releases and Lockboard holders’ events are audit blobs under .lockboard/audit/ in the container; other tools record nothing.',
    conflict: 'Azure refused it (409/412): the lease or the blob changed since you viewed it.',
    rawMetadata: true,
    health: fixed ? FIXED : INFINITE,
  };
}

/** What exists but is no lock, in Azure's words. */
export const NOT_A_LOCK_TERMS: StoreTerms = {
  ...azureTerms('lease', 'infinite'),
  health: {},
};
