// Reading audit events for the churn views: validated windows and a short shared cache per window.
import 'server-only';
import { z } from 'zod';
import { listAuditEvents, type AuditRecord } from '@/lib/lock';
import { EVENT_KINDS } from '@/lib/churn';
import { env } from './env';
import { ApiError, parseWith } from './http';
import { countGcs } from './metrics';
import { storage } from './storage';

const MAX_WINDOW_MS = 31 * 86_400_000;
const CACHE_MS = 5_000;
const cache = new Map<string, { at: number; value: Promise<AuditRecord[]> }>();

const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time such as 2026-01-31T12:00:00Z' });
export const windowSchema = z.object({
  from: isoDate.optional(),
  to: isoDate.optional(),
  lock: z.string().min(1).max(1024).optional(),
  event: z.enum(EVENT_KINDS as [string, ...string[]]).optional(),
});

export interface AuditWindow {
  from: Date;
  to: Date;
  lock?: string;
  event?: string;
}

/** from/to default to the last 24 hours; at most 31 days per request. */
export function parseWindow(params: URLSearchParams): AuditWindow {
  const raw = parseWith(windowSchema, Object.fromEntries([...params].filter(([k]) => k in windowSchema.shape)));
  const to = raw.to ? new Date(raw.to) : new Date();
  const from = raw.from ? new Date(raw.from) : new Date(to.getTime() - 86_400_000);
  if (from >= to) throw new ApiError('bad_request', '`from` must be before `to`.');
  if (to.getTime() - from.getTime() > MAX_WINDOW_MS) {
    throw new ApiError('bad_request', 'The window is longer than 31 days; ask for at most 31 days per request.');
  }
  return { from, to, lock: raw.lock, event: raw.event };
}

export function readEvents(w: AuditWindow): Promise<AuditRecord[]> {
  const key = `${w.from.toISOString()}|${w.to.toISOString()}|${w.lock ?? ''}`;
  const now = performance.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < CACHE_MS) return hit.value;
  const value = listAuditEvents({
    storage: storage(),
    bucket: env().LOCKBOARD_BUCKET,
    auditPrefix: env().LOCKBOARD_AUDIT_PREFIX,
    from: w.from,
    to: w.to,
    lock: w.lock,
  }).then(({ events, listCalls }) => {
    for (let i = 0; i < listCalls; i++) countGcs('objects.list');
    return events;
  });
  value.catch(() => cache.delete(key));
  if (cache.size > 100) cache.clear();
  cache.set(key, { at: now, value });
  return value;
}
