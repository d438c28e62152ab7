// Reading audit events for the churn views: validated windows and a short shared cache per window.
import 'server-only';
import { processWide } from '../process/process-wide';
import { z } from 'zod';
import { EVENT_KINDS } from '@/lib/console/churn/summary';
import { ApiError } from '../api-error';
import { parseWith } from '../request-body';
import { attribute, faultOf, markGood, memoryOnlyOf, readTrailWindow, trailsOf, type Trail } from './trails';
import type { MemoryOnlyTrail, TrailFault } from '@/lib/console/churn/summary';
import type { SourcedAuditRecord } from './trails';
import { sourceOfLock, sources } from '../sources';
import { trustAuditRecords } from '@/lib/lock/audit/trust';
import { SESSIONS_LOCK } from '../auth/session-revocations';

const MAX_WINDOW_MS = 31 * 86_400_000;
const CACHE_MS = 5_000;
const cache = processWide(
  'auditCache',
  () => new Map<string, { at: number; startMs: number; value: Promise<SourcedAuditRecord[]> }>(),
);

const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time such as 2026-01-31T12:00:00Z' });
export const windowSchema = z.object({
  from: isoDate.optional(),
  to: isoDate.optional(),
  lock: z.string().min(1).max(1024).optional(),
  bucket: z.string().max(222).optional(),
  event: z.enum(EVENT_KINDS as [string, ...string[]]).optional(),
});

export interface AuditWindow {
  from: Date;
  to: Date;
  lock?: string;
  bucket?: string;
  event?: string;
}

/**
 * A record is stamped on its store's clock, which may run ahead of the console's (a Date header read to the second):
 * an open window ends this far past the console's now, so the newest records are never cut off as "future".
 */
const STORE_CLOCK_AHEAD_MS = 60_000;

/** from/to default to the last 24 hours (to now, with the stores' clocks' lead); at most 31 days per request. */
export function parseWindow(params: URLSearchParams): AuditWindow {
  const raw = parseWith(windowSchema, Object.fromEntries([...params].filter(([k]) => k in windowSchema.shape)));
  const now = Date.now();
  const to = raw.to ? new Date(raw.to) : new Date(now + STORE_CLOCK_AHEAD_MS);
  const from = raw.from ? new Date(raw.from) : new Date(now - 86_400_000);
  if (from >= to) throw new ApiError('bad_request', '"from" must be before "to".');
  if (to.getTime() - from.getTime() > MAX_WINDOW_MS) {
    throw new ApiError('bad_request', 'The window is longer than 31 days; ask for at most 31 days per request.');
  }
  return { from, to, lock: raw.lock, bucket: raw.bucket, event: raw.event };
}

const SLICE_MS = 86_400_000;
/** A closed day changes only by late writes; the current day is re-read every few seconds. */
const CLOSED_SLICE_CACHE_MS = 10 * 60_000;

/**
 * The events of a window, the trails that could not be read (their sources shown unreachable), and the trails read
 * that their stores keep in memory only (lost on a restart of the server: said beside the events).
 */
export interface EventsRead {
  events: SourcedAuditRecord[];
  unreachable: TrailFault[];
  memoryOnly: MemoryOnlyTrail[];
}

/**
 * Events of the window, only for locks inside the configured sources, each trail read once however many sources
 * share it (or only the trail of the one source holding `lock`), each event named with its one source. The window is
 * read in whole-day (UTC) slices, each listed once and cached, then cut to the exact bounds in memory: shifting a
 * window by a millisecond costs no new listing (at most 32 slices; one list call per 1 000 events each). A trail that
 * fails is reported in `unreachable`; when every trail asked for fails, the request fails (503) in the store's words.
 */
export async function readEvents(w: AuditWindow): Promise<EventsRead> {
  const configured = sources();
  const owner = w.lock ? sourceOfLock(w.lock, w.bucket) : undefined;
  const chosen = owner ? [owner] : configured.filter((s) => w.bucket === undefined || s.bucketId === w.bucket);
  if (w.bucket !== undefined && chosen.length === 0) {
    throw new ApiError('bad_request', `Bucket "${w.bucket}" is not in a configured source.`);
  }
  const trails = trailsOf(chosen, configured);
  const first = Math.floor(w.from.getTime() / SLICE_MS) * SLICE_MS;
  const from = w.from.toISOString();
  const to = w.to.toISOString();
  const read = await Promise.all(
    trails.map(async (trail) => {
      const slices: Promise<SourcedAuditRecord[]>[] = [];
      for (let d = first; d < w.to.getTime(); d += SLICE_MS) slices.push(readSlice(trail, d, w.lock));
      try {
        const [events, memoryOnly] = await Promise.all([Promise.all(slices), memoryOnlyOf(trail)]);
        markGood(trail);
        return { events: events.flat(), memoryOnly };
      } catch (err) {
        return { fault: faultOf(trail, err) };
      }
    }),
  );
  const unreachable = read.flatMap((r) => (r.fault ? [r.fault] : []));
  if (trails.length > 0 && unreachable.length === trails.length) {
    throw new ApiError(
      'storage_unavailable',
      `${unreachable.map((f) => f.message).join('; ')}. Retry in a few seconds.`,
    );
  }
  // With `lock`, only its own source's events: a same-named lock in another table of the trail is another lock
  const mine = (e: SourcedAuditRecord) => !owner || e.source === owner.id;
  const events = read
    .flatMap((r) => r.events ?? [])
    .filter((e) => e.at >= from && e.at < to && mine(e))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const memoryOnly = read.flatMap((r) => (r.memoryOnly ? [r.memoryOnly] : []));
  return { events, unreachable, memoryOnly };
}

/** One UTC day of one trail, read through its store and cached (closed days for longer). */
function readSlice(trail: Trail, startMs: number, lock: string | undefined): Promise<SourcedAuditRecord[]> {
  const key = `${trail.key}|${startMs}|${lock ?? ''}`;
  const now = performance.now();
  const closed = startMs + SLICE_MS < Date.now() - 60_000;
  const hit = cache.get(key);
  if (hit && now - hit.at < (closed ? CLOSED_SLICE_CACHE_MS : CACHE_MS)) return hit.value;
  // every record made safe to show and its signature checked (lib/lock/audit/trust.ts)
  const value = readTrailWindow(trail, new Date(startMs), new Date(startMs + SLICE_MS), lock).then((events) =>
    // the console's session records share the trail but concern no lock (lib/server/auth/session-revocations.ts)
    attribute(
      trail,
      trustAuditRecords(events).filter((e) => e.lock !== SESSIONS_LOCK),
    ),
  );
  value.catch(() => cache.delete(key));
  if (cache.size >= 2_000) cache.delete(cache.keys().next().value!);
  cache.set(key, { at: now, startMs, value });
  return value;
}

/** After a release, the slices still open (today's) must be read again: the release added to the trail. */
export function invalidateOpenSlices(): void {
  for (const [key, { startMs }] of cache) {
    if (startMs + SLICE_MS >= Date.now() - 60_000) cache.delete(key);
  }
}
