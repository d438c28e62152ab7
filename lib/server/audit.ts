// Reading audit events for the churn views: validated windows and a short shared cache per window.
import 'server-only';
import { z } from 'zod';
import type { AuditRecord } from '@/lib/lock/audit-record';
import { EVENT_KINDS } from '@/lib/churn';
import { ApiError, parseWith } from './http';
import { storeFor } from './stores';
import { sourceOfLock, sources, type Source } from './sources';
import { trustAuditRecords } from '@/lib/lock/audit-trust';

const MAX_WINDOW_MS = 31 * 86_400_000;
const CACHE_MS = 5_000;
const cache = new Map<string, { at: number; value: Promise<BucketAuditRecord[]> }>();

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

/** from/to default to the last 24 hours; at most 31 days per request. */
export function parseWindow(params: URLSearchParams): AuditWindow {
  const raw = parseWith(windowSchema, Object.fromEntries([...params].filter(([k]) => k in windowSchema.shape)));
  const to = raw.to ? new Date(raw.to) : new Date();
  const from = raw.from ? new Date(raw.from) : new Date(to.getTime() - 86_400_000);
  if (from >= to) throw new ApiError('bad_request', '"from" must be before "to".');
  if (to.getTime() - from.getTime() > MAX_WINDOW_MS) {
    throw new ApiError('bad_request', 'The window is longer than 31 days; ask for at most 31 days per request.');
  }
  return { from, to, lock: raw.lock, bucket: raw.bucket, event: raw.event };
}

const SLICE_MS = 86_400_000;
/** A closed day changes only by late writes; the current day is re-read every few seconds. */
const CLOSED_SLICE_CACHE_MS = 10 * 60_000;

/** An audit event with the bucket it was read from (the lock's own bucket). */
export type BucketAuditRecord = AuditRecord & { bucket: string };

/**
 * Events of the window, only for locks inside the configured sources, read from the audit prefix of every
 * configured bucket (or of the one bucket holding `lock`). The window is read in whole-day (UTC) slices,
 * each listed once and cached, then cut to the exact bounds in memory: shifting a window by a millisecond (or
 * opening many overlapping windows) costs no new listing, so the cost per interval is bounded by the days shown
 * (at most 32 slices; one list call per 1 000 events each).
 */
export async function readEvents(w: AuditWindow): Promise<BucketAuditRecord[]> {
  const configured = sources();
  // One trail per container (bucket, server, database): GCS and S3 audit objects, a Redis stream, a PostgreSQL table
  const chosen = w.lock
    ? [sourceOfLock(w.lock, w.bucket)]
    : configured.filter((s) => w.bucket === undefined || s.bucketId === w.bucket);
  if (w.bucket !== undefined && chosen.length === 0) {
    throw new ApiError('bad_request', `Bucket "${w.bucket}" is not in a configured source.`);
  }
  const trails = new Map(chosen.map((s) => [s.bucketId, s]));
  const first = Math.floor(w.from.getTime() / SLICE_MS) * SLICE_MS;
  const slices: Promise<BucketAuditRecord[]>[] = [];
  for (const source of trails.values())
    for (let d = first; d < w.to.getTime(); d += SLICE_MS) slices.push(readSlice(source, d, w.lock));
  const from = w.from.toISOString();
  const to = w.to.toISOString();
  const inside = (e: BucketAuditRecord) =>
    configured.some((s) => s.bucketId === e.bucket && e.lock.startsWith(s.prefix) && e.lock.length > s.prefix.length);
  return (await Promise.all(slices))
    .flat()
    .filter((e) => e.at >= from && e.at < to && inside(e))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** One UTC day of one trail, read through its store and cached (closed days for longer). */
function readSlice(source: Source, startMs: number, lock: string | undefined): Promise<BucketAuditRecord[]> {
  const key = `${source.bucketId}|${startMs}|${lock ?? ''}`;
  const now = performance.now();
  const closed = startMs + SLICE_MS < Date.now() - 60_000;
  const hit = cache.get(key);
  if (hit && now - hit.at < (closed ? CLOSED_SLICE_CACHE_MS : CACHE_MS)) return hit.value;
  const value = storeFor(source)
    .then((store) => store.readAudit(new Date(startMs), new Date(startMs + SLICE_MS), lock))
    .then((events) => trustAuditRecords(events).map((e) => ({ ...e, bucket: source.bucketId })));
  value.catch(() => cache.delete(key));
  if (cache.size >= 2_000) cache.delete(cache.keys().next().value!);
  cache.set(key, { at: now, value });
  return value;
}

/** After a release, the slices still open (today's) must be read again: the release added to the trail. */
export function invalidateOpenSlices(): void {
  for (const key of cache.keys()) {
    const start = Number(key.split('|')[1]);
    if (start + SLICE_MS >= Date.now() - 60_000) cache.delete(key);
  }
}
