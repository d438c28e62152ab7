// lockboard_lock_held_seconds{address,verdict}: opt-in (LOCKBOARD_LOCK_GAUGE), for at most N locks across every
// source, the longest held first, so an alert can name the lock (the other lock series stop at the source).
import 'server-only';
import { Gauge } from 'prom-client';
import { MAX_LIMIT } from '@/lib/lock/query/query';
import { processWide } from '../process/process-wide';
import { lockAddress } from '@/lib/lock/address';
import type { Source } from '../sources';
import { metrics } from './metrics';

const held = processWide(
  'heldGauge',
  () =>
    new Gauge({
      name: 'lockboard_lock_held_seconds',
      help: 'Seconds each lock has been held, by address and verdict (opt-in: LOCKBOARD_LOCK_GAUGE locks, the longest held first).',
      labelNames: ['address', 'verdict'] as const,
      registers: [metrics.registry],
    }),
);

interface HeldRow {
  source: string;
  name: string;
  heldMs: number;
}
type Page = (cursor: string | undefined, limit: number) => Promise<{ locks: HeldRow[]; nextCursor?: string }>;

/** Sets the gauge from the longest-held locks, paged `MAX_LIMIT` at a time up to `cap`. */
export async function setHeldGauge(all: Source[], cap: number, page: Page): Promise<void> {
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
