// A lock's holders over time from its audit events (pure; shown on the lock page).
import type { AuditRecord } from '@/lib/lock/audit/record';
import { outsideDeletions } from './generation-ends';

export interface Tenure {
  generation: string;
  identity?: string;
  /** When the tenure began; absent where the trail holds only its end (a foreign lock's release, an older start). */
  from?: string;
  to?: string;
  ended:
    | 'held'
    | 'released'
    | 'failed'
    | 'lost'
    | 'taken over'
    | 'force-released'
    | 'deleted outside'
    | 'ended, not recorded';
  heldMs?: number;
  error?: string;
}

/** The events that end a tenure: shown even when the trail lacks its start. */
const ENDINGS = new Set<string>(['released', 'force-released', 'deleted-outside']);

function unstarted(byGeneration: Map<string, Tenure>, key: string, e: AuditRecord): Tenure | undefined {
  if (!ENDINGS.has(e.event) || (e.event !== 'deleted-outside' && e.delete_confirmed === 'false')) return undefined;
  const tenure: Tenure = { generation: e.generation ?? '', identity: e.identity, ended: 'held' };
  byGeneration.set(key, tenure);
  return tenure;
}

/** A start ranks before anything else within one millisecond: a holder may take and release a lock in the same one. */
const rank = (e: AuditRecord) =>
  e.event === 'acquired' || e.event === 'took-over' || e.event === 'observed-created' ? 0 : 1;
const chronological = (a: AuditRecord, b: AuditRecord) => (a.at < b.at ? -1 : a.at > b.at ? 1 : rank(a) - rank(b));

/**
 * The holders of one lock over time: one entry per generation, newest first. `free`: nothing holds the lock now, so
 * a tenure whose end the trail lacks (an expiry, a holder that records nothing) ended all the same: never "held".
 */
export function timeline(events: AuditRecord[], o: { free?: boolean } = {}): Tenure[] {
  const byGeneration = new Map<string, Tenure>();
  const outside = outsideDeletions(events); // the churn page's rule: a released generation was not deleted outside
  const ordered = [...events].sort(chronological);
  for (const e of ordered) {
    if (!e.generation && !ENDINGS.has(e.event)) continue;
    if (e.event === 'deleted-outside' && !outside.has(e)) continue;
    if (e.event === 'acquired' || e.event === 'took-over') {
      byGeneration.set(e.generation!, { generation: e.generation!, identity: e.identity, from: e.at, ended: 'held' });
      if (e.event === 'took-over' && e.previous_generation) {
        const previous = byGeneration.get(e.previous_generation);
        if (previous && previous.ended === 'held') Object.assign(previous, { ended: 'taken over', to: e.at });
      }
      continue;
    }
    // A foreign lock's tenure starts at its observed creation (a Lockboard lock's own `acquired` came first)
    if (e.event === 'observed-created') {
      if (!byGeneration.has(e.generation!))
        byGeneration.set(e.generation!, { generation: e.generation!, identity: e.identity, from: e.at, ended: 'held' });
      continue;
    }
    // An ending whose start the trail lacks (a foreign holder's lock, or a start before the window) is still a tenure:
    // every release shows on its lock's page, its start "not recorded"
    const key = e.generation ?? `${e.event}@${e.at}`;
    const tenure = byGeneration.get(key) ?? unstarted(byGeneration, key, e);
    if (!tenure) continue;
    // An unconfirmed release (its DELETE response was lost) never overrides a confirmed one of the same generation
    const releasedEvent = e.event === 'released' || e.event === 'force-released';
    if (releasedEvent && e.delete_confirmed === 'false' && tenure.ended !== 'held' && tenure.ended !== 'lost') continue;
    if (e.event === 'released')
      Object.assign(tenure, {
        ended: e.outcome === 'error' ? 'failed' : 'released',
        to: e.at,
        heldMs: e.held_ms,
        error: e.error,
      });
    else if (e.event === 'lost' && tenure.ended === 'held')
      Object.assign(tenure, { ended: 'lost', to: e.at, heldMs: e.held_ms });
    else if (e.event === 'force-released') Object.assign(tenure, { ended: 'force-released', to: e.at });
    else if (e.event === 'deleted-outside') Object.assign(tenure, { ended: 'deleted outside', to: e.at });
    else if (e.event === 'observed-deleted' && tenure.ended === 'held')
      Object.assign(tenure, { ended: 'released', to: e.at });
  }
  return oneHolder([...byGeneration.values()].reverse(), o.free === true);
}

/**
 * One holder at a time: a tenure still "held" when a later one began ended before it, unrecorded (an expiry, a
 * crashed holder); only the newest may be held, and not when nothing holds the lock now. So an older generation no
 * longer shows as held beside the newer one, nor flips with each read of whether the lock is free.
 */
function oneHolder(newestFirst: Tenure[], free: boolean): Tenure[] {
  let later = free;
  for (const t of newestFirst) {
    if (t.ended === 'held' && later) t.ended = 'ended, not recorded';
    if (t.from !== undefined) later = true;
  }
  return newestFirst;
}
