// The caller's console: every listing, lock, audit read and release built from one access, so a route or page cannot
// forget the scope (withRole and requireRole hand it over; lib/server/live/live-board.ts adds the streams). Every lock
// is an access with a grant on "*" (or everyLockReader, the metrics token), never a missing argument.
import 'server-only';
import type { InspectOptions } from '@/lib/lock/store';
import type { LockQuery } from '../lock/query/query';
import { viewerOf, type Access } from './auth/access';
import type { AuditWindow } from './audit/events';
import { readEventsFor } from './audit/scoped-events';
import { getForConsole, queryForConsole } from './locks';
import { holdAs, holdFormatsFor, unholdAs } from './hold';
import { assertMayRelease, forceReleasePinned, type SeenLock } from './release';
import { selectionFor, sourcesFor } from './scoped-sources';
import type { Selection, Source } from './sources';

export function boardOf(access: Access) {
  const viewer = viewerOf(access);
  return {
    access,
    /** What the caller sees of each lock (scope, sensitive fields, release). */
    viewer,
    /** The configured sources some grant reaches (the selector). */
    sources: () => sourcesFor(access),
    /** `?source` / `?prefix` within the caller's sources; none: their landing. */
    select: (source?: string, prefix?: string) => selectionFor(access, source, prefix),
    /** A window of the selection: rows, totals, counts and progress within the scope. */
    query: (selection: Selection, query: LockQuery) => queryForConsole(selection, query, viewer),
    /** One lock; outside the scope, exactly the answer for one that does not exist. */
    get: (source: Source, name: string, inspect?: InspectOptions) => getForConsole(source, name, viewer, inspect),
    /** The audit events of locks in scope, and the unreachable trails of the caller's sources. */
    events: (window: AuditWindow) => readEventsFor(access, window),
    /** Releases the version seen as the caller (403 outside their release grants, nothing touched). */
    release: (seen: SeenLock, reason: string) => forceReleasePinned(seen, access.actor, reason, access),
    /** Holds (operators over the lock only; 403 otherwise, nothing touched): place, end, the formats offered. */
    hold: (input: Parameters<typeof holdAs>[1]) => holdAs(access, input),
    unhold: (input: Parameters<typeof unholdAs>[1]) => unholdAs(access, input),
    holdFormats: (at: Parameters<typeof holdFormatsFor>[1]) => holdFormatsFor(access, at),
    /** 403 for a lock the caller may not release at all (a batch checks every lock first). */
    assertMayRelease: (source: Source, name: string) => assertMayRelease(access, source, name),
  };
}

export type Board = ReturnType<typeof boardOf>;
