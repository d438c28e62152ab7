// Events from the audit trail (never from the request path): a force-release, a refused one, a takeover, a lock
// deleted outside Lockboard. Each record is one event; its id is the trail's key and the record's own id. With the
// deployment's audit key set, a record without its signature is what some holder wrote: an unsigned force-release or
// refusal is told as such (`verified: false`, no actor, the name it gives as `claimedActor`), never as an operator's.
import { lockHref } from '@/lib/console/queries';
import type { SourcedAuditRecord } from '../audit/trails';
import type { Source } from '../sources';
import type { NotifyEventKind } from './config';
import { stableId, type NotifyEvent } from './event';
import { lockAddress } from '@/lib/lock/address';
import { auditKey } from '@/lib/lock/audit/trust';

const KINDS: Partial<Record<string, NotifyEventKind>> = {
  'force-released': 'force-released',
  'force-release-refused': 'release-refused',
  'took-over': 'taken-over',
  'deleted-outside': 'deleted-outside',
  'hold-placed': 'hold-placed',
  'hold-ended': 'hold-ended',
  'hold-expired': 'hold-expired',
};

/** The operators' acts: told as theirs only from a signed record (when the deployment signs). */
const OPERATOR_ACTS: readonly NotifyEventKind[] = ['force-released', 'release-refused', 'hold-placed', 'hold-ended'];

/** The event a record tells, or undefined for records no webhook hears of (acquired, released, …). */
export function eventOfRecord(
  trailKey: string,
  record: SourcedAuditRecord,
  source: Source,
  linkBase: string | undefined,
  key = auditKey(),
): NotifyEvent | undefined {
  const kind = KINDS[record.event];
  if (!kind) return undefined;
  const verified = key ? record.verified === true : null;
  const actor = actorOf(kind, record);
  const forged = verified === false && OPERATOR_ACTS.includes(kind);
  return {
    id: stableId([trailKey, record.id]),
    event: kind,
    at: record.at,
    lock: {
      address: lockAddress(source, record.lock),
      source: source.id,
      name: record.lock,
      store: source.store,
      // a takeover is written by Lockboard's own lock only (each store's acquire): its format, where the record omits it
      format: record.format ?? (kind === 'taken-over' ? 'lockboard' : null),
    },
    actor: forged ? null : actor,
    reason: reasonOf(kind, record),
    outcome: record.outcome ?? (kind === 'force-released' ? 'released' : kind === 'taken-over' ? 'took-over' : null),
    // a trail record carries no verdict: only holder-gone (from the verdict the console shows) has one
    verdict: null,
    sentence: null,
    link: lockLink(linkBase, record.lock, source.bucketId),
    verified,
    ...(forged && actor ? { claimedActor: actor } : {}),
    ...(record.until !== undefined ? { until: record.until } : {}),
  };
}

function actorOf(kind: NotifyEventKind, r: SourcedAuditRecord): string | null {
  if (kind === 'taken-over') return r.identity ?? null;
  if (kind === 'deleted-outside') return null;
  return r.operator ?? null;
}

function reasonOf(kind: NotifyEventKind, r: SourcedAuditRecord): string | null {
  if (kind === 'taken-over') {
    const stale = r.stale_ms === undefined ? '' : ` ${Math.round(r.stale_ms / 1000)} s after it went stale`;
    return `took over from ${r.previous_identity ?? 'a stale holder'}${stale}`;
  }
  if (kind === 'deleted-outside') return 'deleted with no Lockboard release recorded';
  return r.reason ?? r.error ?? null;
}

/** The lock's page on the console, when its public URL (NEXTAUTH_URL) is known. */
export function lockLink(linkBase: string | undefined, name: string, bucketId: string): string | null {
  if (!linkBase) return null;
  return `${linkBase.replace(/\/$/, '')}${lockHref(name, bucketId)}`;
}
