// How a Lease is shown. Health as client-go judges it: a candidate takes the Lease over once it has seen the record
// unchanged for leaseDurationSeconds on its own clock; the console does the same with its own observations (the
// first time it saw this resourceVersion), and shows the writer's renewTime beside it (expired by the writer's clock
// is `overdue` until the console has watched it unchanged that long).
import type { LockView } from '../../store';
import type { LockHealth } from '../../types';
import { readLease, type LeaseReading } from './formats';
import { keyOf, timeOf, type Lease } from './lease';
import { kubeTerms } from './words';
import { annotationsNote, boundedAnnotations } from './untrusted';
import { versionOfLease } from './version';
import { droppedNote, joinNotes } from '../../support/untrusted';

/**
 * First time the console saw each Lease at each resourceVersion (`namespace/name` → rv and when), the holder's
 * renewTime then, when a renewTime was last seen to move (a renewal seen between two reads), the longest step between
 * two renewTimes of this holder seen (its renewal cadence, cadence.ts), and reads so far.
 */
export type Observations = Map<string, Observation>;

export interface Observation {
  rv: string;
  at: number;
  holder?: string;
  renewMs?: number;
  renewedAt?: number;
  cadenceMs?: number;
  reads: number;
}

export function observe(seen: Observations, l: Lease, now: number): Observation {
  const key = keyOf(l);
  const rv = l.metadata.resourceVersion ?? '';
  const before = seen.get(key);
  if (before && before.rv === rv) {
    before.reads++;
    return before;
  }
  const holder = l.spec?.holderIdentity ?? undefined;
  const renewMs = timeOf(l.spec?.renewTime);
  const renewed =
    before !== undefined &&
    before.holder === holder &&
    renewMs !== undefined &&
    (before.renewMs === undefined || renewMs > before.renewMs);
  const same = before !== undefined && before.holder === holder;
  const cadenceMs = renewed ? cadenceAfter(before, renewMs) : same ? before.cadenceMs : undefined;
  const next: Observation = {
    rv,
    at: now,
    reads: (before?.reads ?? 0) + 1,
    ...(holder !== undefined ? { holder } : {}),
    ...(renewMs !== undefined ? { renewMs } : {}),
    ...(renewed ? { renewedAt: now } : same && before.renewedAt !== undefined ? { renewedAt: before.renewedAt } : {}),
    ...(cadenceMs !== undefined ? { cadenceMs } : {}),
  };
  seen.set(key, next);
  return next;
}

/** The longest step between two renewTimes of one holder seen (the writer's clock): a renewer renews this often or more. */
function cadenceAfter(before: Observation, renewMs: number): number | undefined {
  if (before.renewMs === undefined) return before.cadenceMs;
  return Math.max(before.cadenceMs ?? 0, renewMs - before.renewMs);
}

function judge(r: LeaseReading, now: number, unchangedMs: number, longHeldMs?: number): [LockHealth, string?] {
  const since = r.acquiredMs ?? now;
  if (r.durationMs !== undefined) {
    if (unchangedMs > r.durationMs)
      return [
        'expired',
        `Unchanged for ${Math.round(unchangedMs / 1000)} s, longer than its lease: client-go candidates take it over.`,
      ];
    if (r.renewMs !== undefined && r.renewMs + r.durationMs < now)
      return [
        'overdue',
        'Expired by the writer’s renewTime; the console confirms once it has seen it unchanged for its lease.',
      ];
    return ['healthy'];
  }
  if (longHeldMs !== undefined && now - since > longHeldMs) return ['long-held', 'Never expires by itself.'];
  return ['unknown', 'This Lease never expires by itself: only its holder or an operator clears it.'];
}

export function leaseView(
  l: Lease,
  r: LeaseReading,
  o: { source: string; name: string; now: number; observedAt: number; longHeldMs?: number },
): LockView {
  const since = r.acquiredMs ?? timeOf(l.metadata.creationTimestamp) ?? o.observedAt;
  const updated = r.renewMs ?? since;
  const [health, judged] = judge(r, o.now, o.now - o.observedAt, o.longHeldMs);
  const annotations = boundedAnnotations(l);
  const note = joinNotes(judged, droppedNote(r.dropped), annotationsNote(annotations.left));
  const rv = l.metadata.resourceVersion ?? '0';
  const expiresAt = r.durationMs !== undefined ? o.observedAt + r.durationMs : undefined;
  return {
    store: 'kubernetes',
    source: o.source,
    bucket: o.source,
    name: o.name,
    format: r.kind,
    formatLabel: r.label,
    identity: r.identity,
    generation: String(r.transitions ?? 0),
    metageneration: '0',
    createdAt: new Date(since).toISOString(),
    updatedAt: new Date(updated).toISOString(),
    heldMs: Math.max(0, o.now - since),
    ...(r.durationMs !== undefined ? { ttlMs: r.durationMs } : {}),
    ...(expiresAt !== undefined
      ? { expiresAt: new Date(expiresAt).toISOString(), afterExpiry: 'expired' as const }
      : {}),
    health,
    metadata: annotations.shown,
    details: [
      ['Lease', keyOf(l)],
      ...r.details,
      ['Unchanged since (console’s clock)', new Date(o.observedAt).toISOString()],
      ...(r.renewMs !== undefined && r.durationMs !== undefined
        ? [['Expiry by the writer’s clock', new Date(r.renewMs + r.durationMs).toISOString()] as [string, string]]
        : []),
    ],
    releasable: true,
    releaseRule: 'clear-holder',
    releaseNote:
      'Writes holderIdentity "" to the Lease, pinned to the resourceVersion you saw (as client-go and Terraform release); the Lease itself stays.',
    ...(note ? { note } : {}),
    size: JSON.stringify(l.spec ?? {}).length,
    version: versionOfLease(rv, l.metadata.uid ?? '', r.holder),
    versionLabel: `resourceVersion ${rv}`,
    terms: kubeTerms(r.kind),
  };
}

/** The view of a Lease, or null when nobody holds it. */
export function viewOf(
  l: Lease,
  o: { source: string; name: string; now: number; seen: Observations; longHeldMs?: number },
) {
  const r = readLease(l);
  if (!r) return null;
  return leaseView(l, r, { ...o, observedAt: observe(o.seen, l, o.now).at });
}
