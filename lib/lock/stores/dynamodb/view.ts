// How a DynamoDB lock is shown: Terraform's items never expire (long-held past the threshold); a lease client is
// healthy until the same recordVersionNumber has been seen unchanged for longer than its lease (two observations a
// lease apart, as the clients themselves judge it), then expired; Lockboard's own expires on the service's clock.
import type { LockView } from '../../store';
import { monotonicNow } from '../../time';
import type { LockHealth } from '../../types';
import { droppedNote, joinNotes } from '../../support/untrusted';
import { sameOwner, versionOf, type DynamoReading } from './formats';
import { dynamoSigns } from './signs';
import { dynamoTerms } from './words';

interface ViewContext {
  source: string;
  /** The service's clock (ms). */
  now: number;
  /**
   * When each (name, version) was first seen by this store: on the service's clock ("seen since"), and on the local
   * monotonic clock, which measures how long it has stayed unchanged (as the lock clients do: an estimate of the
   * service's clock may move by up to its resolution between two reads).
   */
  firstSeen: Map<string, FirstSeen>;
  /** The version each name was last seen at: a new version of the same owner is a heartbeat seen. */
  latest: Map<string, string>;
  /** The listing pass that reads it (an inspect or a release reads outside a pass: undefined). */
  pass?: number;
  longHeldMs?: number;
}

export interface FirstSeen {
  at: number;
  mono: number;
  /** The last listing pass that saw this version. */
  pass?: number;
  /** It replaced a version of the same owner this store had seen: a heartbeat. */
  renewed?: boolean;
  /** Seen by more than one read. */
  reads?: number;
}

export function dynamoView(r: DynamoReading, c: ViewContext): LockView {
  const version = versionOf(r);
  const key = `${r.name}\u0000${version}`;
  const first = c.firstSeen.get(key) ?? firstSighting(r, version, c);
  if (c.pass !== undefined) first.pass = c.pass;
  first.reads = (first.reads ?? 0) + 1;
  c.firstSeen.set(key, first);
  c.latest.set(r.name, version);
  const seen = first.at;
  const since = r.acquiredMs ?? seen;
  const unchangedMs = monotonicNow() - first.mono;
  const { health, note, expiresAt } = judge(r, c, since, unchangedMs);
  return {
    store: 'dynamodb',
    source: c.source,
    bucket: c.source,
    name: r.name,
    format: r.format,
    formatLabel: r.label,
    ...(r.identity ? { identity: r.identity } : {}),
    ...(r.purpose ? { purpose: r.purpose } : {}),
    ...(r.host ? { host: r.host } : {}),
    generation: r.token ?? '0',
    metageneration: '0',
    createdAt: new Date(since).toISOString(),
    updatedAt: new Date(seen).toISOString(),
    heldMs: Math.max(0, c.now - since),
    ...(expiresAt !== undefined
      ? { expiresAt: new Date(expiresAt).toISOString(), afterExpiry: 'expired' as const }
      : {}),
    ...(r.leaseMs !== undefined ? { ttlMs: r.leaseMs } : {}),
    health,
    signs: dynamoSigns(r, { unchangedMs, renewed: first.renewed === true, seenBefore: first.reads > 1 }, c.now),
    ...noteOf(note, r.dropped),
    metadata: {},
    // "Seen since" and the lease are the page's own rows (terms.since, terms.ttl): not repeated as details
    details: r.leaseMs === undefined ? r.details : r.details.filter(([label]) => label !== 'Lease'),
    releasable: true,
    releaseRule: 'delete',
    releaseNote: releaseNote(r),
    size: 0,
    version,
    versionLabel: `item hash ${version.slice(0, 8)}${r.token ? ` · token ${r.token}` : ''}`,
    terms: dynamoTerms(r),
    ...(r.format === 'terraform' && r.lockId ? { pairKey: `terraform:${r.name}#${r.lockId}` } : {}),
  };
}

/** A version not seen before: a heartbeat when the name was last seen at another version of the same owner. */
function firstSighting(r: DynamoReading, version: string, c: ViewContext): FirstSeen {
  const before = c.latest.get(r.name);
  const renewed = before !== undefined && before !== version && sameOwner(before, r);
  return { at: c.now, mono: monotonicNow(), ...(renewed ? { renewed } : {}) };
}

function judge(r: DynamoReading, c: ViewContext, since: number, unchangedMs: number) {
  const longHeld = c.longHeldMs !== undefined && c.now - since > c.longHeldMs;
  if (r.released) return { health: 'free' as LockHealth, note: 'released (isReleased = 1): the next client takes it' };
  if (r.expiresAtMs !== undefined)
    return {
      health: (c.now >= r.expiresAtMs ? 'expired' : longHeld ? 'long-held' : 'healthy') as LockHealth,
      expiresAt: r.expiresAtMs,
    };
  if (r.leaseMs !== undefined) {
    if (unchangedMs > r.leaseMs)
      return {
        health: 'expired' as LockHealth,
        note: `unchanged for ${Math.round(unchangedMs / 1000)} s, longer than its ${r.leaseMs / 1000} s lease: its holder stopped heartbeating`,
      };
    return { health: (longHeld ? 'long-held' : 'healthy') as LockHealth, expiresAt: c.now - unchangedMs + r.leaseMs };
  }
  // No lease and no heartbeat: nothing shows whether its holder is alive, so it is never "long-held" (which says
  // alive, held long); how long it has been held is said in the note instead
  const held = longHeld
    ? `held for over ${Math.round(c.longHeldMs! / 60_000)} min with no sign of life either way`
    : '';
  const base = r.format === 'terraform' ? '' : 'no lease (FailClosed): it never expires by itself';
  const note = [base, held].filter(Boolean).join('; ');
  return { health: 'unknown' as LockHealth, note: note || undefined };
}

function releaseNote(r: DynamoReading): string {
  if (r.format === 'terraform')
    return (
      'Deletes the item only if its Info is still exactly what you saw (one DeleteItem with a condition), unlike ' +
      '`terraform force-unlock`, which compares the lock ID and then deletes with no condition. If the run that holds ' +
      'it is still applying, two applies can then write the state at once.'
    );
  return 'Deletes the item only if its recordVersionNumber and owner are still the ones you saw: after a heartbeat or a successor’s write, nothing is deleted.';
}

function noteOf(note: string | undefined, dropped: string[] | undefined): { note?: string } {
  const all = joinNotes(note, droppedNote(dropped ?? []));
  return all ? { note: all } : {};
}
