// How a leased blob is shown: who holds it as its format says, health on Azure's clock (a fixed lease is held only
// while renewed; an infinite one cannot be judged), and "seen since" where no acquire time is stored (a lease has
// none). The version is the ETag plus the lease id where known, else the lease's duration.
import type { LockView } from '../../store';
import type { LockHealth } from '../../types';
import { droppedNote, joinNotes } from '../../support/untrusted';
import type { AzureListed } from './blobs';
import type { AzureReading } from './formats';
import { azureVersionOf } from './version';
import { azureTerms } from './words';
import { azureSigns } from './signs';

/** The longest fixed lease Azure grants: a lease seen held longer was renewed. */
const MAX_FIXED_LEASE_MS = 60_000;

export interface ViewContext {
  source: string;
  container: string;
  /** Azure's clock (ms). */
  now: number;
  /** When each (name, version) was first seen by this store, on Azure's clock. */
  firstSeen: Map<string, number>;
  longHeldMs?: number;
  /** The longest fixed lease (60 s; tests shorten it). */
  maxFixedLeaseMs?: number;
}

/** Since when a fixed lease is known held without a gap: the metadata its holder wrote on acquiring, or first seen. */
function heldSinceMs(r: AzureReading, b: AzureListed, seen: number): number {
  return r.writtenOnAcquire ? Math.min(b.lastModifiedMs, seen) : seen;
}

/** A fixed lease held longer than any fixed lease lasts: its holder renews it (alive). */
export function renewedFor(r: AzureReading, b: AzureListed, c: ViewContext): number | null {
  if (r.duration !== 'fixed') return null;
  const seen = c.firstSeen.get(`${b.name}\u0000${versionOf(r, b)}`) ?? c.now;
  const held = c.now - heldSinceMs(r, b, seen);
  return held > (c.maxFixedLeaseMs ?? MAX_FIXED_LEASE_MS) ? held : null;
}

function versionOf(r: AzureReading, b: AzureListed): string {
  return azureVersionOf(b.etag, r.leaseId ?? r.duration);
}

export function azureView(r: AzureReading, b: AzureListed, c: ViewContext): LockView {
  const version = versionOf(r, b);
  const key = `${b.name}\u0000${version}`;
  const seen = c.firstSeen.get(key) ?? c.now;
  c.firstSeen.set(key, seen);
  const since = r.acquiredMs ?? heldSinceMs(r, b, seen);
  const health = healthOf(r, c, since);
  return {
    store: 'azure',
    source: c.source,
    bucket: c.container,
    name: b.name,
    format: r.kind === 'terraform' || r.kind === 'lockboard' ? r.kind : 'azure-lease',
    formatLabel: r.label,
    ...(r.identity ? { identity: r.identity } : {}),
    ...(r.purpose ? { purpose: r.purpose } : {}),
    ...(r.host ? { host: r.host } : {}),
    ...(r.pid ? { pid: r.pid } : {}),
    generation: r.leaseId ?? '0',
    metageneration: '0',
    createdAt: new Date(since).toISOString(),
    updatedAt: new Date(b.lastModifiedMs).toISOString(),
    heldMs: Math.max(0, c.now - since),
    ...(r.ttlMs !== undefined ? { ttlMs: r.ttlMs } : {}),
    ...(r.refreshMs !== undefined ? { refreshIntervalMs: r.refreshMs } : {}),
    health,
    signs: azureSigns(r, c.now - heldSinceMs(r, b, seen), c.maxFixedLeaseMs ?? MAX_FIXED_LEASE_MS, c.now),
    ...noteOf(r, b),
    metadata: b.metadata,
    details: [...r.details, ['Lease state', `${b.leaseState} (${r.duration})`]],
    releasable: true,
    releaseRule: 'clear-holder',
    releaseNote: releaseNote(r),
    size: b.size,
    version,
    versionLabel: `ETag ${b.etag.slice(-8)} · ${r.leaseId ? `lease ${r.leaseId.slice(0, 8)}` : `${r.duration} lease, id unknown`}`,
    terms: azureTerms(r.kind, r.duration),
    ...(r.kind === 'terraform' && r.leaseId ? { pairKey: `terraform:${c.container}/${b.name}#${r.leaseId}` } : {}),
  };
}

function healthOf(r: AzureReading, c: ViewContext, since: number): LockHealth {
  // an infinite lease is never renewed: nothing shows whether its holder is alive, so it is never long-held
  if (r.duration === 'infinite') return 'unknown';
  return c.longHeldMs !== undefined && c.now - since > c.longHeldMs ? 'long-held' : 'healthy';
}

function noteOf(r: AzureReading, b: AzureListed): { note?: string } {
  const breaking = b.leaseState === 'breaking' ? 'its lease is being broken' : undefined;
  const all = joinNotes(r.note, breaking, droppedNote(r.dropped ?? []));
  return all ? { note: all } : {};
}

function releaseNote(r: AzureReading): string {
  if (r.kind === 'terraform' && r.leaseId)
    return (
      'Removes terraformlockid and releases the lease with its id (the LockInfo ID), only if the blob is still the ' +
      'version you saw, as `terraform force-unlock` does. The state blob is kept. Azure fences the old holder: if it ' +
      'is still applying, its next state write fails with 412.'
    );
  if (r.kind === 'lockboard')
    return 'Releases the lease with its id (the token), only if the blob is still the version you saw; the holder’s next renewal fails and its signal aborts.';
  return (
    'Breaks the lease (period 0) with If-Match on the ETag you saw, after re-reading it. Not proven: that nobody ' +
    'released and re-took the lease in between without writing metadata (the ETag does not see lease changes). A ' +
    'holder wrongly broken fails safe: its next write with its lease id gets 412. A fixed lease seen renewed is ' +
    'refused. The blob is never deleted.'
  );
}
