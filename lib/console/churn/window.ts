// The churn view's window in the address (client-safe): `?range=24h`, or `?from=…&to=…` (ISO, UTC) for a custom one,
// so a window can be shared, reloaded, and undone with the browser's Back.
import { RANGES, type ChurnWindow, type RangeKey } from '@/lib/console/queries';

const MAX_WINDOW_MS = 31 * 86_400_000;

/** The window an address names; anything missing or malformed is the default (the last 24 hours). */
export function churnWindowOf(params: { get(key: string): string | null }): ChurnWindow {
  const from = params.get('from');
  const to = params.get('to');
  if (from && to) {
    const a = Date.parse(from);
    const b = Date.parse(to);
    if (!Number.isNaN(a) && !Number.isNaN(b) && a < b && b - a <= MAX_WINDOW_MS)
      return { range: 'custom', from: new Date(a).toISOString(), to: new Date(b).toISOString() };
  }
  const range = params.get('range');
  return { range: range && range in RANGES ? (range as RangeKey) : '24h' };
}

/** The address's query for a window (the default window needs none). */
export function churnWindowQuery(w: ChurnWindow): string {
  if (w.range === 'custom') return `?${new URLSearchParams({ from: w.from, to: w.to })}`;
  return w.range === '24h' ? '' : `?range=${w.range}`;
}
