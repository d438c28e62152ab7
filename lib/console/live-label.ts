// How a source stays fresh, in the words of the locks page's note (components/locks/listing-notes.tsx): "pushed
// (Pub/Sub projects/p/topics/t) · checked every 60 s", "polled every 2 s: no pushes for 3 min".
import type { LiveMode } from '@/lib/server/listing-status';

/** A pace or a quiet spell for people: "800 ms", "2 s", "3 min", "2 h". */
export function spanWords(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 2 * 3600) return `${Math.floor(s / 60)} min`;
  return `${Math.floor(s / 3600)} h`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The words after "polled every N s" for a source that takes pushes: why it is polled all the same. */
function whyPolled(pushes: Exclude<Extract<LiveMode, { pollMs: number }>['pushes'], undefined>): string {
  if (pushes === 'none yet') return 'no pushes yet';
  if (pushes.quietMs !== undefined) return `no pushes for ${spanWords(pushes.quietMs)}`;
  return `pushes missed ${plural(pushes.missed, 'change')}`;
}

/** One source's mode, without its name. */
export function liveLabel(live: LiveMode): string {
  if ('push' in live) return `pushed (${live.push}) · checked every ${spanWords(live.checkMs)}`;
  const polled = `polled every ${spanWords(Math.max(1_000, live.pollMs))}`;
  return live.pushes ? `${polled}: ${whyPolled(live.pushes)}` : polled;
}
