// The audit events a caller may read: only those of locks in their grants, and only the unreachable (or memory-only)
// trails of sources they may see (the list, the CSV export and the churn summary alike).
import 'server-only';
import { lockAddress } from '@/lib/lock/address';
import { inScope, isEveryLock, scopeOf, sourceInScope, type Access } from '../auth/access';
import { sources } from '../sources';
import { readEvents, type AuditWindow, type EventsRead } from './events';

export async function readEventsFor(access: Access, window: AuditWindow): Promise<EventsRead> {
  const read = await readEvents(window);
  const scope = scopeOf(access);
  const byId = new Map(sources().map((s) => [s.id, s]));
  const visible = new Set(sources().flatMap((s) => (sourceInScope(access, s) ? [s.id] : [])));
  const events = isEveryLock(scope)
    ? read.events
    : read.events.filter((e) => {
        const s = byId.get(e.source);
        return s !== undefined && inScope(scope, lockAddress(s, e.lock));
      });
  return {
    events,
    unreachable: visibleOnly(read.unreachable, visible),
    memoryOnly: visibleOnly(read.memoryOnly, visible),
  };
}

/** The trails' notes naming only the sources the caller may see (a note of none of them is left out). */
function visibleOnly<T extends { sources: string[] }>(notes: T[], visible: Set<string>): T[] {
  return notes.flatMap((f) => {
    const mine = f.sources.filter((id) => visible.has(id));
    return mine.length ? [{ ...f, sources: mine }] : [];
  });
}
