// lockboard_lock_held_seconds{address,verdict}: opt-in (LOCKBOARD_LOCK_GAUGE), for at most N locks across every
// source, the longest held first, so an alert can name the lock (the other lock series stop at the source).
import 'server-only';
import type { Gauge } from 'prom-client';
import { MAX_LIMIT } from '@/lib/lock/query/query';
import { lockAddress } from '@/lib/lock/address';
import type { Source } from '../sources';

interface HeldRow {
  source: string;
  name: string;
  heldMs: number;
}
type Page = (cursor: string | undefined, limit: number) => Promise<{ locks: HeldRow[]; nextCursor?: string }>;

/** Sets `held` (a scrape's, lib/server/metrics/lock-gauges.ts) from the longest-held locks, `MAX_LIMIT` a page up to `cap`. */
export async function setHeldGauge(
  held: Gauge<'address' | 'verdict'>,
  all: Source[],
  cap: number,
  page: Page,
): Promise<void> {
  held.reset();
  if (cap <= 0) return;
  const byId = new Map(all.map((s) => [s.id, s]));
  let cursor: string | undefined;
  let left = cap;
  do {
    const window = await page(cursor, Math.min(MAX_LIMIT, left));
    for (const l of window.locks.slice(0, left)) {
      const source = byId.get(l.source);
      if (!source) continue;
      const verdict = (l as { verdict?: string }).verdict ?? 'unknown';
      held.set({ address: lockAddress(source, l.name), verdict }, Math.round(l.heldMs / 1000));
    }
    left -= window.locks.length;
    cursor = window.nextCursor;
  } while (cursor && left > 0);
}
