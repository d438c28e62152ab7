// The one conditional mutation of each kind of Azure lock (facts-azure.md §1.4), pinned to the version the operator
// saw. Lease id known (Terraform's LockInfo ID, Lockboard's token): the lock info off with that lease id and
// If-Match, then the lease released with it: a successor's lease has another id, so both fail harmlessly. Lease id
// unknown: re-read, then break(0) with If-Match. No blob is ever deleted.
import { ReleaseIncompleteError } from '../../errors';
import type { StoreReleaseOutcome } from '../../store';
import type { AzureBlobs, AzureListed } from './blobs';
import { azureCode, azureStatus } from './errors';
import { TF_KEY } from './formats';
import type { AzureVersion } from './version';

type Outcome = { outcome: StoreReleaseOutcome; detail?: string };

/** 412 / 409: the blob or its lease changed (a successor, or a lease id that is not the holder's); 404: gone. */
function refusedBy(err: unknown): Outcome {
  const status = azureStatus(err);
  if (status === 404) return { outcome: 'gone' };
  if (status === 412 || status === 409) return { outcome: 'changed', detail: azureCode(err) };
  throw err;
}

/**
 * `terraform force-unlock` with the operator's view pinned; the blob's bytes are never touched. Lockboard's lock blob
 * keeps its metadata (its token: the next holder's is larger), rewritten under the same conditions.
 */
export async function releaseWithLeaseId(blobs: AzureBlobs, b: AzureListed, seen: AzureVersion): Promise<Outcome> {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(b.metadata)) if (k.toLowerCase() !== TF_KEY) kept[k] = v;
  try {
    await blobs.setMetadata(b.name, kept, { leaseId: seen.leaseId, ifMatch: seen.etag });
  } catch (err) {
    return refusedBy(err);
  }
  // The lock info is off: the lease must go too, or the blob stays held without lock info (retried with the same id)
  for (let attempt = 1; ; attempt++) {
    try {
      await blobs.releaseLease(b.name, seen.leaseId!);
      return { outcome: 'released' };
    } catch (err) {
      const status = azureStatus(err);
      if (status === 409 || status === 404)
        return { outcome: 'released', detail: `the lease had already ended (${azureCode(err) ?? status})` };
      if (attempt >= RELEASE_ATTEMPTS) throw new ReleaseIncompleteError(b.name, leftLeased(b, seen), azureError(err));
    }
  }
}

const RELEASE_ATTEMPTS = 3;

/** What a blob whose lease release failed was left in, and what clears it. */
function leftLeased(b: AzureListed, seen: AzureVersion): string {
  const lease = `the lease (id ${seen.leaseId}) could not be released after ${RELEASE_ATTEMPTS} attempts`;
  const breakIt = 'or break the lease with "az storage blob lease break"';
  if (!Object.keys(b.metadata).some((k) => k.toLowerCase() === TF_KEY))
    return `The blob is left leased, its metadata unchanged: ${lease}. Release it again, ${breakIt}.`;
  return (
    `The blob is left leased without lock info: its lock info (terraformlockid) was removed, but ${lease}. ` +
    'Terraform reports "state blob is already locked" with empty lock info, and terraform force-unlock cannot clear ' +
    `it. Lockboard lists it again as a lease with no lock info: release that (it breaks the lease, pinned to the ETag), ${breakIt}.`
  );
}

/** Azure's error in its own words: its code and status before the message's first line (request ids follow it). */
function azureError(err: unknown): Error {
  const first = ((err as Error)?.message ?? String(err)).split('\n')[0]!.trim();
  const code = azureCode(err) ?? azureStatus(err);
  return Object.assign(new Error(code !== undefined ? `${code}: ${first}` : first), { cause: err });
}

/**
 * Lease id unknown: the lease re-read just before (the same ETag, still held, the same duration), then broken at once
 * with If-Match. What the ETag cannot prove is said in the view's note and the dialog.
 */
export async function breakUnknownLease(blobs: AzureBlobs, name: string, seen: AzureVersion): Promise<Outcome> {
  const now = await blobs.head(name);
  if (!now) return { outcome: 'gone' };
  if (now.leaseState !== 'leased' && now.leaseState !== 'breaking') return { outcome: 'gone' };
  if (now.etag !== seen.etag || (now.leaseDuration ?? 'infinite') !== seen.duration)
    return { outcome: 'changed', detail: 'the blob or its lease changed since it was read' };
  try {
    await blobs.breakLease(name, 0, seen.etag);
    return { outcome: 'released' };
  } catch (err) {
    // a lease that ended by itself between the re-read and the break: nothing was held
    if (azureCode(err) === 'LeaseNotPresentWithLeaseOperation') return { outcome: 'gone' };
    return refusedBy(err);
  }
}
